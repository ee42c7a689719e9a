import { useMemo } from 'react'
import type {
  ApprovalDecision,
  AttachmentInput,
  ChatMessage,
  Conversation,
  IpcClient,
} from '../../../shared/ipc'
import { useBureau } from '../ipc/BureauProvider'
import { useChat } from './chatStore'
import type { PendingFile } from './composer/pendingFilesSlice'
import { skipRestore } from './conversations/useLastConversation'
import { problemFrom } from './messages/problemFrom'

let tempId = 0

function draftMessage(role: ChatMessage['role'], text: string, files: readonly PendingFile[]): ChatMessage {
  return {
    id: `draft-${role}-${++tempId}`,
    role,
    text,
    createdAt: new Date().toISOString(),
    status: role === 'user' ? 'done' : 'streaming',
    attachments: files.map(({ file }) => ({
      name: file.name,
      size: file.size,
      mimeType: file.type || undefined,
      status: 'pending' as const,
    })),
    steps: [],
    files: [],
  }
}

async function toAttachment({ file }: PendingFile): Promise<AttachmentInput> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  return file.type ? { name: file.name, bytes, mimeType: file.type } : { name: file.name, bytes }
}

/** The chat's run actions on one client: each updates the chat store and reports failures there. */
export function chatActions(bureau: Pick<IpcClient, 'invoke'>) {
  /** Shows the message at once, then starts the run; events fill in the answer. Resolves false on failure. */
  async function sendMessage(text: string, files: readonly PendingFile[]): Promise<boolean> {
    skipRestore()
    const store = useChat.getState()
    const user = draftMessage('user', text, files)
    const assistant = { ...draftMessage('assistant', '', []), attachments: [] }
    store.beginSend(user, assistant)
    try {
      const attachments = await Promise.all(files.map(toAttachment))
      const { conversationId, draftModel } = useChat.getState()
      const result = await bureau.invoke('chat.send', {
        ...(conversationId ? { conversationId } : draftModel ? { model: draftModel } : {}),
        text,
        attachments,
      })
      useChat.getState().runStarted(
        {
          runId: result.runId,
          conversationId: result.conversationId,
          userMessageId: result.userMessageId,
          assistantMessageId: result.assistantMessageId,
        },
        user.id,
        assistant.id,
      )
      return true
    } catch (error) {
      useChat.getState().sendFailed(user.id, assistant.id, problemFrom(error))
      return false
    }
  }

  async function stopRun(): Promise<void> {
    const run = useChat.getState().run
    if (!run) return
    try {
      await bureau.invoke('chat.cancel', { runId: run.runId })
    } catch (error) {
      useChat.getState().setProblem(problemFrom(error))
    }
  }

  async function answerQuestion(input: string): Promise<boolean> {
    const run = useChat.getState().run
    if (!run?.question) return false
    try {
      const { accepted } = await bureau.invoke('chat.answer', {
        runId: run.runId,
        sessionId: run.question.sessionId,
        input,
      })
      if (accepted) useChat.getState().questionAnswered()
      return accepted
    } catch (error) {
      useChat.getState().setProblem(problemFrom(error))
      return false
    }
  }

  /** Answers an approval card; the card goes away when the host reports the approval's end. */
  async function answerApproval(
    approvalId: string,
    decision: ApprovalDecision,
    text?: string,
  ): Promise<void> {
    const run = useChat.getState().run
    if (!run) return
    useChat.getState().approvalAnswered(approvalId, decision)
    try {
      const { accepted } = await bureau.invoke('chat.approve', {
        runId: run.runId,
        approvalId,
        decision,
        ...(text !== undefined ? { text } : {}),
      })
      if (!accepted) useChat.getState().approvalAnswered(approvalId, undefined)
    } catch (error) {
      useChat.getState().approvalAnswered(approvalId, undefined)
      useChat.getState().setProblem(problemFrom(error))
    }
  }

  function pendingAnswer(id: string, parentId: string): ChatMessage {
    return { ...draftMessage('assistant', '', []), id, parentId }
  }

  type ActionRoute = 'chat.regenerate' | 'chat.continue'

  /** Regenerate (also Retry) or Continue an answer; the new text streams in as for a sent message. */
  async function answerAgain(route: ActionRoute, messageId: string): Promise<void> {
    const { conversationId } = useChat.getState()
    if (!conversationId) return
    useChat.getState().beginAction()
    try {
      const result = await bureau.invoke(route, { conversationId, messageId })
      const run = { ...result }
      const added =
        route === 'chat.continue' ? [] : [pendingAnswer(result.assistantMessageId, result.userMessageId)]
      useChat.getState().actionStarted(run, added, result.assistantMessageId)
    } catch (error) {
      useChat.getState().actionFailed(problemFrom(error))
    }
  }

  /** Sends an edited copy of a question (its files go with it); the old turns stay as a branch. */
  async function sendEdit(messageId: string, text: string): Promise<boolean> {
    const { conversationId, messages } = useChat.getState()
    const original = messages.find((m) => m.id === messageId)
    if (!conversationId || !original) return false
    useChat.getState().beginAction()
    try {
      const result = await bureau.invoke('chat.edit', { conversationId, messageId, text })
      const user: ChatMessage = {
        ...original,
        id: result.userMessageId,
        text,
        attachments: original.attachments.map((a) => ({ ...a, status: 'pending' as const })),
      }
      useChat
        .getState()
        .actionStarted(
          result,
          [user, pendingAnswer(result.assistantMessageId, result.userMessageId)],
          result.assistantMessageId,
        )
      return true
    } catch (error) {
      useChat.getState().actionFailed(problemFrom(error))
      return false
    }
  }

  /** Replaces the conversation on screen with what the host returned (after delete or a version switch). */
  async function refreshWith(call: () => Promise<Conversation>): Promise<void> {
    try {
      const conversation = await call()
      useChat.getState().showConversation(conversation.id, conversation.messages, conversation.leafId ?? null)
      useChat.getState().setMeta(conversation)
    } catch (error) {
      useChat.getState().setProblem(problemFrom(error))
    }
  }

  function deleteMessagePair(messageId: string): Promise<void> {
    const { conversationId } = useChat.getState()
    if (!conversationId) return Promise.resolve()
    return refreshWith(() => bureau.invoke('conversations.deleteMessage', { conversationId, messageId }))
  }

  /** Shows another version of a message (‹ ›): the branch through it, to its newest end. */
  function showVersion(messageId: string): Promise<void> {
    const { conversationId } = useChat.getState()
    if (!conversationId) return Promise.resolve()
    return refreshWith(() => bureau.invoke('conversations.select', { conversationId, messageId }))
  }

  return {
    sendMessage,
    stopRun,
    answerQuestion,
    answerApproval,
    answerAgain,
    sendEdit,
    deleteMessagePair,
    showVersion,
  }
}

export type ChatActions = ReturnType<typeof chatActions>

/** `chatActions` bound to the client of the nearest BureauProvider. */
export function useChatActions(): ChatActions {
  const bureau = useBureau()
  return useMemo(() => chatActions(bureau), [bureau])
}
