import { randomUUID } from 'node:crypto'
import { deletePair, selectThrough } from '../../../shared/chat/conversationTree'
import { AppError } from '../../../shared/errors'
import type { Conversation, ConversationSummary } from '../../../shared/ipc'
import type { ConversationStore } from '../conversations/conversationStore'
import { summarize } from '../conversations/titles'
import type { ActiveRunBase, ActiveRuns } from './activeRuns'
import { type ConversationChange, conversationEdits } from './conversationEdits'

export interface MessageRef {
  conversationId: string
  messageId: string
}

/** The stored conversations: list, search, read, rename, branch, delete, import. */
export interface ChatConversations {
  list(query?: string): Promise<ConversationSummary[]>
  get(id: string): Promise<Conversation>
  rename(id: string, title: string): Promise<ConversationSummary>
  delete(id: string): Promise<boolean>
  deleteMessage(ref: MessageRef): Promise<Conversation>
  select(ref: MessageRef): Promise<Conversation>
  /** Pin, model, instructions; the list order stays. */
  change(id: string, change: ConversationChange): Promise<Conversation>
  /** Saves an imported conversation under a new id (its messages keep theirs). */
  importConversation(conversation: Conversation): Promise<ConversationSummary>
}

/** A conversation with a reply running cannot be changed under it. */
export function refuseBusy(runs: Pick<ActiveRuns<ActiveRunBase>, 'busy'>, conversationId: string): void {
  if (runs.busy(conversationId))
    throw new AppError('CONFLICT', 'A reply is still running in this conversation. Stop it or wait for it.')
}

/** The conversations half of the chat service; `runs` are the replies in flight, stopped when theirs is deleted. */
export function createChatConversations(
  store: ConversationStore,
  runs: Pick<ActiveRuns<ActiveRunBase>, 'busy' | 'abortConversation'>,
): ChatConversations {
  const edits = conversationEdits(store)
  return {
    list: (query) => store.list(query),
    get: (id) => store.get(id),
    rename: (id, title) => store.rename(id, title),
    async delete(id) {
      runs.abortConversation(id)
      return store.delete(id)
    },
    deleteMessage(ref) {
      refuseBusy(runs, ref.conversationId)
      return store.update(ref.conversationId, (c) => {
        const tree = deletePair({ messages: c.messages, leafId: c.leafId ?? null }, ref.messageId)
        c.messages = tree.messages
        c.leafId = tree.leafId
      })
    },
    select: (ref) =>
      store.update(
        ref.conversationId,
        (c) => {
          c.leafId = selectThrough({ messages: c.messages, leafId: c.leafId ?? null }, ref.messageId).leafId
        },
        { touch: false },
      ),
    change: (id, change) => edits.change(id, change),
    async importConversation(conversation) {
      // A grant is the user's answer on a card here; a file from elsewhere cannot bring one.
      const { approvedTools: _dropped, ...imported } = conversation
      const saved = await store.put({
        ...imported,
        id: randomUUID(),
        updatedAt: new Date().toISOString(),
      })
      return summarize(saved)
    },
  }
}
