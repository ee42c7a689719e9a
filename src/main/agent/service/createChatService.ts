import { randomUUID } from 'node:crypto'
import { AppError } from '../../../shared/errors'
import type {
  ApprovalDecision,
  ChatMessage,
  ChatSendInput,
  ChatSendResult,
  Conversation,
  ConversationSummary,
  Events,
} from '../../../shared/ipc'
import type { EventBus } from '../../ipc'
import { type Toolset, type ToolsetSource, toolsetList } from '../../tools'
import type { Workspace } from '../../workspace'
import type { ConversationStore } from '../conversations/conversationStore'
import { type AgentRun, startAgent } from '../runAgent'
import type { AgentAttachment, AgentEvent, AgentResult } from '../types'
import { delegatable } from './delegatable'
import { type DetachedChatInput, type DetachedRunInput, runDetached, streamDetached } from './detachedRun'
import { historyOf } from './historyOf'
import { assistantMessageOf } from './messageOf'
import { createRunApprovals } from './runApprovals'
import { type ChatRunDeps, runEnvironment } from './runEnvironment'

/** Where the service sends the contract's chat.* and agent.* events (the app's event bus). */
export type ChatEventSink = Pick<EventBus<Events>, 'emit'>

export interface ChatServiceOptions extends ChatRunDeps {
  store: ConversationStore
  toolsets: () => ToolsetSource | Promise<ToolsetSource>
  events: ChatEventSink
}

interface ActiveRun {
  runId: string
  conversationId: string
  controller: AbortController
  agent: AgentRun | undefined
  finished: Promise<void>
}

export interface ChatService {
  /** Starts a run and returns at once; progress arrives as events. */
  send(input: ChatSendInput): Promise<ChatSendResult>
  cancel(runId: string): boolean
  answer(runId: string, input: string, sessionId?: string): boolean
  /** Answers an approval card of a run; false when it is no longer pending. */
  approve(runId: string, approvalId: string, decision: ApprovalDecision): boolean
  list(query?: string): Promise<ConversationSummary[]>
  get(id: string): Promise<Conversation>
  rename(id: string, title: string): Promise<ConversationSummary>
  delete(id: string): Promise<boolean>
  /** One agent run outside any conversation (the OpenAI bridge): nothing saved, no bus events. */
  runDetached(input: DetachedRunInput): Promise<AgentResult>
  /** A plain streaming answer outside any conversation, with history and usage (the bridge's `bureau-chat`). */
  streamDetached(input: DetachedChatInput): AsyncIterable<string>
  /** The bytes of a workspace file, e.g. one a run returned with `done` (agent path). */
  readWorkspaceFile(agentPath: string, options?: { maxBytes?: number }): Promise<Buffer>
  /** Resolves when every run has ended (tests, shutdown). */
  idle(): Promise<void>
  /** Cancels every run and waits for them to be saved. */
  dispose(): Promise<void>
}

function selectToolsets(all: readonly Toolset[], names: readonly string[] | undefined): readonly Toolset[] {
  if (!names) return all
  const unknown = names.filter((name) => !all.some((t) => t.name === name))
  if (unknown.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Unknown toolset ${unknown.map((n) => `"${n}"`).join(', ')}. Available: ${all.map((t) => t.name).join(', ') || 'none'}.`,
    )
  }
  return all.filter((t) => names.includes(t.name))
}

export function createChatService(options: ChatServiceOptions): ChatService {
  const { store, events } = options
  const runs = new Map<string, ActiveRun>()
  const approvals = createRunApprovals(options)
  const idle = async () => {
    while (runs.size > 0) await Promise.all([...runs.values()].map((r) => r.finished))
  }

  async function execute(
    run: ActiveRun,
    refs: { userMessageId: string; assistantMessageId: string },
    input: { text: string; attachments: AgentAttachment[]; toolsets: readonly Toolset[] },
    history: ReturnType<typeof historyOf>,
  ): Promise<void> {
    const ref = { runId: run.runId, conversationId: run.conversationId, messageId: refs.assistantMessageId }
    const onEvent = (event: AgentEvent) => {
      switch (event.type) {
        case 'text':
          return events.emit('chat.delta', { ...ref, text: event.text })
        case 'step':
          return events.emit('agent.step', { ...ref, phase: event.phase, step: event.step })
        case 'question':
          return events.emit('agent.question', { ...ref, ...omitType(event) })
        case 'attachment':
          return events.emit('chat.attachment', {
            ...ref,
            messageId: refs.userMessageId,
            index: event.index,
            attachment: event.attachment,
          })
        case 'notice':
          options.logger?.info('agent notice', { message: event.message })
      }
    }
    let result: AgentResult | undefined
    let failure: string | undefined
    try {
      const model = await options.model()
      const approve = approvals.interactive(run.runId, run.conversationId, {
        asked: (call) => events.emit('agent.approval', { ...ref, call }),
        ended: (approvalId, outcome) => events.emit('agent.approvalEnd', { ...ref, approvalId, outcome }),
      })
      run.agent = startAgent({
        prompt: input.text.trim() || 'Look at the attached files.',
        model,
        toolsets: input.toolsets,
        subagents: delegatable(options.subagents?.(), input.toolsets),
        attachments: input.attachments,
        history,
        maxIterations: options.maxIterations?.(),
        signal: run.controller.signal,
        onEvent,
        ...runEnvironment(options),
        ...(approve && { approve }),
      })
      result = await run.agent.result
    } catch (error) {
      failure = error instanceof AppError ? error.message : 'The agent stopped because of an internal error.'
      if (!(error instanceof AppError)) options.logger?.error('agent run crashed', { error: String(error) })
    }
    const files = result ? await returnedFiles(options.workspace, result.attachments) : []
    let finalMessage: ChatMessage | undefined
    try {
      const saved = await store.update(run.conversationId, (conversation) => {
        const user = conversation.messages.find((m) => m.id === refs.userMessageId)
        if (user && result) user.attachments = result.received
        const index = conversation.messages.findIndex((m) => m.id === refs.assistantMessageId)
        const previous = conversation.messages[index]
        if (!previous) return
        finalMessage = assistantMessageOf(previous, result, failure, files)
        conversation.messages[index] = finalMessage
      })
      finalMessage ??= saved.messages.find((m) => m.id === refs.assistantMessageId)
    } catch (error) {
      options.logger?.error('could not save the conversation', { error: String(error) })
    }
    const message =
      finalMessage ?? assistantMessageOf(pendingAssistant(refs.assistantMessageId), result, failure, files)
    events.emit('agent.done', { ...ref, message })
  }

  return {
    async send(raw) {
      const text = raw.text ?? ''
      const attachments = (raw.attachments ?? []).map((a) => ({
        name: a.name,
        bytes: a.bytes,
        ...(a.mimeType ? { mimeType: a.mimeType } : {}),
      }))
      if (text.trim() === '' && attachments.length === 0)
        throw new AppError('VALIDATION_FAILED', 'Type a message or attach a file.')
      const toolsets = selectToolsets(toolsetList(await options.toolsets()), raw.toolsets)
      if (raw.conversationId && [...runs.values()].some((r) => r.conversationId === raw.conversationId))
        throw new AppError(
          'CONFLICT',
          'A reply is still running in this conversation. Stop it or wait for it.',
        )
      const conversation = raw.conversationId
        ? await store.get(raw.conversationId)
        : await store.create({ firstMessage: text || attachments.map((a) => a.name).join(', ') })
      const history = historyOf(conversation.messages)
      const now = new Date().toISOString()
      const user: ChatMessage = {
        id: randomUUID(),
        role: 'user',
        text,
        createdAt: now,
        status: 'done',
        attachments: attachments.map((a) => ({
          name: a.name,
          size: a.bytes.length,
          ...(a.mimeType ? { mimeType: a.mimeType } : {}),
          status: 'pending' as const,
        })),
        steps: [],
        files: [],
      }
      const assistant = pendingAssistant(randomUUID())
      await store.update(conversation.id, (c) => {
        c.messages.push(user, assistant)
      })
      const run: ActiveRun = {
        runId: randomUUID(),
        conversationId: conversation.id,
        controller: new AbortController(),
        agent: undefined,
        finished: Promise.resolve(),
      }
      runs.set(run.runId, run)
      const refs = { userMessageId: user.id, assistantMessageId: assistant.id }
      // Starts after the reply so the caller has the run id before the first event.
      run.finished = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => execute(run, refs, { text, attachments, toolsets }, history))
        .finally(() => runs.delete(run.runId))
      return { conversationId: conversation.id, runId: run.runId, ...refs }
    },
    cancel(runId) {
      const run = runs.get(runId)
      if (!run || run.controller.signal.aborted) return false
      run.controller.abort()
      return true
    },
    answer(runId, input, sessionId) {
      return runs.get(runId)?.agent?.answer(input, sessionId) ?? false
    },
    approve: (runId, approvalId, decision) => approvals.answer(runId, approvalId, decision),
    list: (query) => store.list(query),
    get: (id) => store.get(id),
    rename: (id, title) => store.rename(id, title),
    async delete(id) {
      for (const run of runs.values()) if (run.conversationId === id) run.controller.abort()
      return store.delete(id)
    },
    async runDetached(input) {
      const toolsets = selectToolsets(toolsetList(await options.toolsets()), input.toolsets)
      return runDetached(options, toolsets, input, approvals.nonInteractive(input.autoApprove))
    },
    streamDetached: (input) => streamDetached(options, input),
    readWorkspaceFile: (agentPath, read) => options.workspace().readFile(agentPath, read),
    idle,
    async dispose() {
      for (const run of runs.values()) run.controller.abort()
      await idle()
    },
  }
}

function omitType<T extends { type: string }>(event: T): Omit<T, 'type'> {
  const { type: _type, ...rest } = event
  return rest
}

function pendingAssistant(id: string): ChatMessage {
  return {
    id,
    role: 'assistant',
    text: '',
    createdAt: new Date().toISOString(),
    status: 'streaming',
    attachments: [],
    steps: [],
    files: [],
  }
}

async function returnedFiles(
  workspace: () => Workspace,
  paths: readonly string[],
): Promise<ChatMessage['files']> {
  const files: ChatMessage['files'] = []
  for (const agentPath of paths) {
    const name = agentPath.split('/').pop() || agentPath
    try {
      const info = await workspace().stat(agentPath)
      files.push({ agentPath: info.path, name, ...(info.size !== undefined ? { size: info.size } : {}) })
    } catch {
      files.push({ agentPath, name })
    }
  }
  return files
}
