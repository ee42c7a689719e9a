import { randomUUID } from 'node:crypto'
import { activePath } from '../../../shared/chat/conversationTree'
import { AppError } from '../../../shared/errors'
import type {
  AttachmentMeta,
  ChatMessage,
  Conversation,
  EventPayload,
  Events,
  VoiceAskInput,
  VoiceAskResult,
} from '../../../shared/ipc'
import { type ActiveRunBase, activeRuns, type HistoryTurn, historyOf } from '../../agent'
import type { Logger } from '../../platform'

export interface VoiceAttachment {
  name: string
  bytes: Uint8Array
  mimeType?: string
}

/** A conversion status change of one attachment, as the agent reports it. */
export interface VoiceAttachmentEvent {
  type: string
  index?: number
  attachment?: AttachmentMeta
}

/**
 * The agent's plain streaming answer with history (`ChatService.streamDetached`): no tools, so a
 * spoken answer starts at once; attachments are converted and saved to /inbox as for the chat.
 */
export interface VoiceChatPort {
  streamDetached(input: {
    prompt: string
    attachments: readonly VoiceAttachment[]
    history: readonly HistoryTurn[]
    signal: AbortSignal
    onEvent?: (event: VoiceAttachmentEvent) => void
  }): AsyncIterable<string>
}

/** The conversation store voice answers are saved in (the chat's, so they show in the Chat page). */
export interface VoiceConversations {
  create(options: { firstMessage: string }): Promise<Conversation>
  get(id: string): Promise<Conversation>
  update(id: string, change: (conversation: Conversation) => void): Promise<Conversation>
}

export interface VoiceEventSink {
  emit<K extends 'voice.delta' | 'voice.done' | 'voice.modelProgress' | 'voice.partial'>(
    event: K,
    payload: EventPayload<Events, K>,
  ): void
}

interface Run extends ActiveRunBase {
  askId: string
  messageId: string
  /** Set by barge-in: what was spoken before the user cut in. */
  spokenText: string | undefined
}

export interface VoiceAsks {
  ask(input: VoiceAskInput): Promise<VoiceAskResult>
  cancel(askId: string): boolean
  interrupt(input: { conversationId: string; messageId: string; spokenText: string }): Promise<boolean>
  idle(): Promise<void>
  dispose(): Promise<void>
}

function message(role: ChatMessage['role'], text: string, status: ChatMessage['status']): ChatMessage {
  return {
    id: randomUUID(),
    role,
    text,
    createdAt: new Date().toISOString(),
    status,
    attachments: [],
    steps: [],
    files: [],
  }
}

/**
 * Spoken answers: each runs the plain streaming answer (no tools: a voice answer must start at once), streams its
 * text as `voice.delta`, and is saved in the conversation like a chat answer. A barge-in keeps only
 * what was spoken (`spokenText`) and marks the message `interrupted`.
 */
export function createVoiceAsks(deps: {
  chat: VoiceChatPort
  conversations: VoiceConversations
  events: VoiceEventSink
  logger?: Logger
  now?: () => number
}): VoiceAsks {
  const runs = activeRuns<Run>()
  const now = deps.now ?? (() => performance.now())

  async function execute(
    run: Run,
    request: {
      prompt: string
      attachments: VoiceAttachment[]
      history: HistoryTurn[]
      userMessageId: string
    },
  ): Promise<void> {
    const ref = { askId: run.askId, conversationId: run.conversationId, messageId: run.messageId }
    const started = now()
    let firstTokenMs: number | undefined
    let text = ''
    let error: string | undefined
    const received = new Map<number, AttachmentMeta>()
    try {
      const stream = deps.chat.streamDetached({
        prompt: request.prompt,
        attachments: request.attachments,
        history: request.history,
        signal: run.controller.signal,
        onEvent: (event) => {
          if (event.type === 'attachment' && event.index !== undefined && event.attachment)
            received.set(event.index, event.attachment)
        },
      })
      for await (const chunk of stream) {
        if (run.controller.signal.aborted) break
        firstTokenMs ??= now() - started
        text += chunk
        deps.events.emit('voice.delta', { ...ref, text: chunk })
      }
    } catch (failure) {
      if (!run.controller.signal.aborted) {
        error =
          failure instanceof AppError ? failure.message : 'The answer stopped because of an internal error.'
        if (!(failure instanceof AppError))
          deps.logger?.error('voice answer crashed', { error: String(failure) })
      }
    }
    const status: ChatMessage['status'] =
      run.spokenText !== undefined
        ? 'interrupted'
        : run.controller.signal.aborted
          ? 'cancelled'
          : error
            ? 'error'
            : 'done'
    let final: ChatMessage | undefined
    try {
      await deps.conversations.update(run.conversationId, (conversation) => {
        const user = conversation.messages.find((m) => m.id === request.userMessageId)
        if (user) user.attachments = user.attachments.map((meta, i) => received.get(i) ?? meta)
        const stored = conversation.messages.find((m) => m.id === run.messageId)
        if (!stored) return
        stored.text = text
        stored.status = status
        if (error) stored.error = error
        if (run.spokenText !== undefined) stored.spokenText = run.spokenText
        final = { ...stored }
      })
    } catch (failure) {
      deps.logger?.error('could not save the voice answer', { error: String(failure) })
    }
    final ??= {
      ...message('assistant', text, status),
      id: run.messageId,
      ...(error ? { error } : {}),
      ...(run.spokenText !== undefined ? { spokenText: run.spokenText } : {}),
    }
    deps.logger?.info('voice answer', {
      askId: run.askId,
      status,
      firstTokenMs: firstTokenMs === undefined ? null : Math.round(firstTokenMs),
      totalMs: Math.round(now() - started),
      chars: text.length,
    })
    deps.events.emit('voice.done', { ...ref, message: final })
  }

  return {
    async ask(input) {
      const text = input.text.trim()
      const attachments = (input.attachments ?? []).map((a) => ({
        name: a.name,
        bytes: a.bytes,
        ...(a.mimeType ? { mimeType: a.mimeType } : {}),
      }))
      if (input.conversationId && runs.busy(input.conversationId))
        throw new AppError('CONFLICT', 'An answer is still being spoken in this conversation. Stop it first.')
      const conversation = input.conversationId
        ? await deps.conversations.get(input.conversationId)
        : await deps.conversations.create({ firstMessage: text })
      // The branch on screen (a conversation may hold other versions and branches).
      const history = historyOf(
        activePath({ messages: conversation.messages, leafId: conversation.leafId ?? null }),
      )
      const user = message('user', text, 'done')
      user.attachments = attachments.map((a) => ({
        name: a.name,
        size: a.bytes.length,
        ...(a.mimeType ? { mimeType: a.mimeType } : {}),
        status: 'pending' as const,
      }))
      const assistant = message('assistant', '', 'streaming')
      await deps.conversations.update(conversation.id, (c) => {
        c.messages.push(user, assistant)
      })
      const run: Run = {
        askId: randomUUID(),
        conversationId: conversation.id,
        messageId: assistant.id,
        controller: new AbortController(),
        spokenText: undefined,
        finished: Promise.resolve(),
      }
      // Starts after the reply so the caller knows the ask id before the first delta.
      runs.start(run.askId, run, () =>
        execute(run, { prompt: text, attachments, history, userMessageId: user.id }),
      )
      return {
        askId: run.askId,
        conversationId: conversation.id,
        userMessageId: user.id,
        assistantMessageId: assistant.id,
      }
    },
    cancel: (askId) => runs.cancel(askId),
    async interrupt({ conversationId, messageId, spokenText }) {
      const run = [...runs.values()].find(
        (r) => r.conversationId === conversationId && r.messageId === messageId,
      )
      if (run) {
        run.spokenText = spokenText
        run.controller.abort()
        await run.finished
      }
      // Also after a run: it may have been saving as done when the user cut in.
      let found = false
      await deps.conversations.update(conversationId, (conversation) => {
        const stored = conversation.messages.find((m) => m.id === messageId && m.role === 'assistant')
        if (!stored) return
        found = true
        stored.status = 'interrupted'
        stored.spokenText = spokenText
      })
      return found
    },
    idle: () => runs.idle(),
    dispose: () => runs.dispose(),
  }
}
