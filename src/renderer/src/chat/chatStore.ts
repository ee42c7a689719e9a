import { create } from 'zustand'
import type {
  AgentStep,
  ApprovalCall,
  ApprovalDecision,
  AttachmentMeta,
  ChatMessage,
  Conversation,
  EventPayload,
  Events,
  ModelChoice,
} from '../../../shared/ipc'
import { toolName } from '../components/toolName'

export interface PendingQuestion {
  sessionId: string
  toolset: string
  question: string
}

/** A call waiting on an approval card; `answer` is set once the user clicked (until the host confirms). */
export interface PendingApproval {
  call: ApprovalCall
  answer?: ApprovalDecision | undefined
}

export interface ActiveRun {
  runId: string
  conversationId: string
  userMessageId: string
  assistantMessageId: string
  question?: PendingQuestion | undefined
  approvals?: PendingApproval[] | undefined
}

export interface ChatProblem {
  code?: string | undefined
  message: string
}

type Payload<K extends keyof Events> = EventPayload<Events, K>

interface ChatState {
  conversationId: string | undefined
  /** Every message of the conversation (all versions and branches); the screen shows the path to `leafId`. */
  messages: ChatMessage[]
  leafId: string | null
  /** A search hit to scroll to and mark once the conversation is on screen. */
  focusMessageId: string | undefined
  /** The open conversation's model and instructions (undefined for a new chat). */
  meta: Pick<Conversation, 'id' | 'model' | 'instructions' | 'generation'> | undefined
  /** The model chosen for the next new conversation. */
  draftModel: ModelChoice | undefined
  /** The run being streamed; at most one at a time. */
  run: ActiveRun | undefined
  /** True between pressing Send and the host's reply with the run id. */
  sending: boolean
  problem: ChatProblem | undefined
  /** Why the last approval card went away unanswered (e.g. it timed out); cleared on the next send. */
  approvalNote: string | undefined
  /** Events that arrived before chat.send answered with their run id. */
  early: Array<{ event: keyof Events; payload: unknown }>

  showConversation(
    id: string | undefined,
    messages: ChatMessage[],
    leafId?: string | null,
    focusMessageId?: string,
  ): void
  beginSend(user: ChatMessage, assistant: ChatMessage): void
  runStarted(run: ActiveRun, tempUserId: string, tempAssistantId: string): void
  /** Before a regenerate/edit/continue request: buffer its early events. */
  beginAction(): void
  /** The host started the run: add its new messages (or mark the continued one) and replay early events. */
  actionStarted(run: ActiveRun, added: ChatMessage[], leafId: string): void
  actionFailed(problem: ChatProblem): void
  focusDone(): void
  setMeta(meta: ChatState['meta']): void
  setDraftModel(choice: ModelChoice | undefined): void
  sendFailed(tempUserId: string, tempAssistantId: string, problem: ChatProblem): void
  setProblem(problem: ChatProblem | undefined): void
  onDelta(p: Payload<'chat.delta'>): void
  onAttachment(p: Payload<'chat.attachment'>): void
  onStep(p: Payload<'agent.step'>): void
  onQuestion(p: Payload<'agent.question'>): void
  onApproval(p: Payload<'agent.approval'>): void
  onApprovalEnd(p: Payload<'agent.approvalEnd'>): void
  approvalAnswered(approvalId: string, answer: ApprovalDecision | undefined): void
  dismissApprovalNote(): void
  onDone(p: Payload<'agent.done'>): void
  questionAnswered(): void
}

/** The note left when a card ends without the user's answer: a denial after its deadline is a timeout. */
function unansweredNote(pending: PendingApproval, outcome: 'allowed' | 'denied'): string | undefined {
  if (pending.answer !== undefined || outcome !== 'denied') return undefined
  const { toolset, method, expiresAt } = pending.call
  // The host's clock and ours may differ by a little; the run stopping early leaves no note.
  if (Date.now() < Date.parse(expiresAt) - 2000) return undefined
  return `Denied: no answer in time for ${toolName(toolset, method)}.`
}

/** Replaces one message by id, searching from the end (the streamed message is nearly always last). */
function updateMessage(
  messages: ChatMessage[],
  id: string,
  update: (m: ChatMessage) => ChatMessage,
): ChatMessage[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]
    if (message?.id === id) {
      const next = messages.slice()
      next[i] = update(message)
      return next
    }
  }
  return messages
}

function upsertStep(steps: AgentStep[], step: AgentStep): AgentStep[] {
  const index = steps.findIndex((s) => s.id === step.id)
  if (index < 0) return [...steps, step]
  const next = steps.slice()
  next[index] = step
  return next
}

function renameId(id: string | null | undefined, from: string, to: string) {
  return id === from ? to : id
}

function setAttachment(list: AttachmentMeta[], index: number, meta: AttachmentMeta): AttachmentMeta[] {
  const next = list.slice()
  next[index] = meta
  return next
}

export const useChat = create<ChatState>((set, get) => {
  /** Holds events for a run whose id chat.send has not returned yet; drops events of other runs. */
  const accept = (event: keyof Events, payload: { runId: string; conversationId: string }): boolean => {
    const { run, sending, conversationId } = get()
    if (run?.runId === payload.runId) return true
    if (sending && (conversationId === undefined || conversationId === payload.conversationId))
      set((s) => ({ early: [...s.early, { event, payload }] }))
    return false
  }

  const replayEarly = (run: ActiveRun, early: ChatState['early']) => {
    const state = get()
    const handlers = {
      'chat.delta': state.onDelta,
      'chat.attachment': state.onAttachment,
      'agent.step': state.onStep,
      'agent.question': state.onQuestion,
      'agent.approval': state.onApproval,
      'agent.approvalEnd': state.onApprovalEnd,
      'agent.done': state.onDone,
    } as Partial<Record<keyof Events, (payload: never) => void>>
    for (const { event, payload } of early) {
      if ((payload as { runId?: string }).runId === run.runId) handlers[event]?.(payload as never)
    }
  }

  return {
    conversationId: undefined,
    messages: [],
    leafId: null,
    focusMessageId: undefined,
    meta: undefined,
    draftModel: undefined,
    run: undefined,
    sending: false,
    problem: undefined,
    approvalNote: undefined,
    early: [],

    showConversation(id, messages, leafId, focusMessageId) {
      set({
        conversationId: id,
        messages,
        leafId: leafId ?? messages[messages.length - 1]?.id ?? null,
        focusMessageId,
        problem: undefined,
        ...(get().conversationId === id ? {} : { meta: undefined }),
      })
    },
    beginSend(user, assistant) {
      set((s) => {
        const parented = { ...user, parentId: s.leafId }
        return {
          messages: [...s.messages, parented, { ...assistant, parentId: user.id }],
          leafId: assistant.id,
          sending: true,
          problem: undefined,
          approvalNote: undefined,
          early: [],
        }
      })
    },
    runStarted(run, tempUserId, tempAssistantId) {
      const early = get().early
      set((s) => ({
        run,
        sending: false,
        early: [],
        conversationId: run.conversationId,
        meta: s.meta ?? { id: run.conversationId, ...(s.draftModel ? { model: s.draftModel } : {}) },
        leafId: renameId(s.leafId, tempAssistantId, run.assistantMessageId) ?? null,
        messages: s.messages.map((m) => {
          if (m.id === tempUserId) return { ...m, id: run.userMessageId }
          if (m.id === tempAssistantId)
            return { ...m, id: run.assistantMessageId, parentId: run.userMessageId }
          return m
        }),
      }))
      replayEarly(run, early)
    },
    beginAction() {
      set({ sending: true, problem: undefined, early: [] })
    },
    actionStarted(run, added, leafId) {
      const early = get().early
      set((s) => ({
        run,
        sending: false,
        early: [],
        leafId,
        messages: [
          ...s.messages.map((m) =>
            m.id === run.assistantMessageId ? { ...m, status: 'streaming' as const } : m,
          ),
          ...added,
        ],
      }))
      replayEarly(run, early)
    },
    actionFailed(problem) {
      set({ sending: false, early: [], problem })
    },
    focusDone: () => set({ focusMessageId: undefined }),
    setMeta: (meta) => set({ meta }),
    setDraftModel: (draftModel) => set({ draftModel }),
    sendFailed(tempUserId, tempAssistantId, problem) {
      set((s) => ({
        sending: false,
        early: [],
        problem,
        leafId: s.messages.find((m) => m.id === tempUserId)?.parentId ?? null,
        messages: s.messages.filter((m) => m.id !== tempAssistantId && m.id !== tempUserId),
      }))
    },
    setProblem: (problem) => set({ problem }),

    onDelta(p) {
      if (!accept('chat.delta', p)) return
      set((s) => ({
        messages: updateMessage(s.messages, p.messageId, (m) => ({ ...m, text: m.text + p.text })),
      }))
    },
    onAttachment(p) {
      if (!accept('chat.attachment', p)) return
      const run = get().run
      set((s) => {
        // The event names the message that carries the files: normally the user's.
        const target = s.messages.some((m) => m.id === p.messageId && m.role === 'user')
          ? p.messageId
          : run?.userMessageId
        if (!target) return s
        return {
          messages: updateMessage(s.messages, target, (m) => ({
            ...m,
            attachments: setAttachment(m.attachments, p.index, p.attachment),
          })),
        }
      })
    },
    onStep(p) {
      if (!accept('agent.step', p)) return
      set((s) => ({
        messages: updateMessage(s.messages, p.messageId, (m) => ({
          ...m,
          steps: upsertStep(m.steps, p.step),
        })),
      }))
    },
    onQuestion(p) {
      if (!accept('agent.question', p)) return
      set((s) => ({
        run: s.run && {
          ...s.run,
          question: { sessionId: p.sessionId, toolset: p.toolset, question: p.question },
        },
      }))
    },
    onApproval(p) {
      if (!accept('agent.approval', p)) return
      set((s) => ({
        run: s.run && {
          ...s.run,
          approvals: [
            ...(s.run.approvals ?? []).filter((a) => a.call.approvalId !== p.call.approvalId),
            { call: p.call },
          ],
        },
      }))
    },
    onApprovalEnd(p) {
      if (!accept('agent.approvalEnd', p)) return
      set((s) => {
        const pending = s.run?.approvals?.find((a) => a.call.approvalId === p.approvalId)
        if (!s.run || !pending) return s
        const note = unansweredNote(pending, p.outcome)
        return {
          run: { ...s.run, approvals: s.run.approvals?.filter((a) => a !== pending) },
          ...(note ? { approvalNote: note } : {}),
        }
      })
    },
    approvalAnswered(approvalId, answer) {
      set((s) => ({
        run: s.run && {
          ...s.run,
          approvals: s.run.approvals?.map((a) => (a.call.approvalId === approvalId ? { ...a, answer } : a)),
        },
      }))
    },
    dismissApprovalNote: () => set({ approvalNote: undefined }),
    onDone(p) {
      if (!accept('agent.done', p)) return
      set((s) => ({
        run: undefined,
        messages: updateMessage(s.messages, p.message.id, () => p.message),
      }))
    },
    questionAnswered: () => set((s) => ({ run: s.run && { ...s.run, question: undefined } })),
  }
})
