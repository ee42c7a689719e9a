import { randomUUID } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { AppError } from '../../../shared/errors'
import type { Conversation, ConversationSummary } from '../../../shared/ipc'
import type { Logger } from '../../platform'
import {
  listConversationIds,
  readConversationFile,
  removeConversationFile,
  writeConversationFile,
} from './conversationFiles'
import { searchConversation } from './searchConversation'
import { summarize, titleFrom } from './titles'
import { withTree } from './withTree'

export interface ConversationStoreOptions {
  /** The folder that holds one `<id>.json` per conversation (created on first write). */
  dir: string
  logger?: Logger
  now?: () => Date
}

export interface ConversationStore {
  /**
   * Pinned first, then newest; `query` keeps the conversations whose title or message text has it
   * (case-insensitive) and says where. Unreadable files are skipped and logged.
   */
  list(query?: string): Promise<ConversationSummary[]>
  get(id: string): Promise<Conversation>
  create(options?: {
    title?: string
    firstMessage?: string
    model?: Conversation['model']
  }): Promise<Conversation>
  /**
   * Read-modify-write under a per-conversation lock, then an atomic write. Messages pushed without a
   * `parentId` continue the branch on screen and become its end. `touch: false` keeps `updatedAt`
   * (rename, pin: the list order stays).
   */
  update(
    id: string,
    change: (conversation: Conversation) => void,
    options?: { touch?: boolean },
  ): Promise<Conversation>
  /** Saves a whole conversation (an import) under its id. */
  put(conversation: Conversation): Promise<Conversation>
  rename(id: string, title: string): Promise<ConversationSummary>
  delete(id: string): Promise<boolean>
}

function notFound(id: string): AppError {
  return new AppError('NOT_FOUND', `There is no conversation "${id}".`)
}

export function createConversationStore(options: ConversationStoreOptions): ConversationStore {
  const now = options.now ?? (() => new Date())
  const locks = new Map<string, Promise<unknown>>()
  let dirReady: Promise<unknown> | undefined

  /** Runs `work` after every earlier operation on the same conversation. */
  function serial<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = locks.get(id) ?? Promise.resolve()
    const next = previous.then(work, work)
    const settled = next.catch(() => undefined)
    locks.set(id, settled)
    void settled.then(() => {
      if (locks.get(id) === settled) locks.delete(id)
    })
    return next
  }

  async function read(id: string): Promise<Conversation> {
    const outcome = await readConversationFile(options.dir, id)
    if (outcome.ok) return withTree(outcome.conversation)
    if (outcome.reason === 'missing') throw notFound(id)
    options.logger?.warn('conversation file is unreadable', { id, detail: outcome.detail })
    throw new AppError('UNAVAILABLE', `Conversation "${id}" is damaged and cannot be opened.`)
  }

  async function write(conversation: Conversation): Promise<void> {
    dirReady ??= mkdir(options.dir, { recursive: true })
    await dirReady
    await writeConversationFile(options.dir, conversation)
  }

  function update(
    id: string,
    change: (conversation: Conversation) => void,
    updateOptions: { touch?: boolean } = {},
  ): Promise<Conversation> {
    return serial(id, async () => {
      const conversation = await read(id)
      change(conversation)
      const next = withTree(conversation)
      if (updateOptions.touch !== false) next.updatedAt = now().toISOString()
      await write(next)
      return next
    })
  }

  return {
    async list(query) {
      const ids = await listConversationIds(options.dir)
      const needle = query?.trim().toLowerCase()
      const summaries: ConversationSummary[] = []
      for (const id of ids) {
        const outcome = await readConversationFile(options.dir, id)
        if (!outcome.ok) {
          if (outcome.reason === 'corrupt')
            options.logger?.warn('skipped an unreadable conversation file', { id, detail: outcome.detail })
          continue
        }
        const summary = summarize(outcome.conversation)
        if (needle) {
          const hit = searchConversation(outcome.conversation, needle)
          if (!hit) continue
          summary.hit = hit
        }
        summaries.push(summary)
      }
      return summaries.sort(
        (a, b) =>
          Number(b.pinned) - Number(a.pinned) ||
          b.updatedAt.localeCompare(a.updatedAt) ||
          a.id.localeCompare(b.id),
      )
    },
    get: (id) => read(id),
    async create(input = {}) {
      const at = now().toISOString()
      const conversation: Conversation = {
        id: randomUUID(),
        title: input.title?.trim() || titleFrom(input.firstMessage ?? ''),
        createdAt: at,
        updatedAt: at,
        pinned: false,
        messages: [],
        leafId: null,
        ...(input.model ? { model: input.model } : {}),
      }
      await serial(conversation.id, () => write(conversation))
      return conversation
    },
    update,
    async rename(id, title) {
      const trimmed = title.trim()
      if (!trimmed) throw new AppError('VALIDATION_FAILED', 'A conversation title cannot be empty.')
      const conversation = await update(
        id,
        (c) => {
          c.title = trimmed.slice(0, 200)
        },
        { touch: false },
      )
      return summarize(conversation)
    },
    put(conversation) {
      const normalized = withTree(conversation)
      return serial(conversation.id, async () => {
        await write(normalized)
        return normalized
      })
    },
    delete(id) {
      return serial(id, () => removeConversationFile(options.dir, id))
    },
  }
}
