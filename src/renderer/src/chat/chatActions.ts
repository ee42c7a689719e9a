import type { AttachmentInput, ChatMessage } from '../../../shared/ipc'
import { bureau } from '../ipc/bureauClient'
import { useChat } from './chatStore'
import type { PendingFile } from './pendingFilesSlice'
import { problemFrom } from './problemFrom'

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

/** Shows the message at once, then starts the run; events fill in the answer. Resolves false on failure. */
export async function sendMessage(text: string, files: readonly PendingFile[]): Promise<boolean> {
  const store = useChat.getState()
  const user = draftMessage('user', text, files)
  const assistant = { ...draftMessage('assistant', '', []), attachments: [] }
  store.beginSend(user, assistant)
  try {
    const attachments = await Promise.all(files.map(toAttachment))
    const conversationId = useChat.getState().conversationId
    const result = await bureau.invoke('chat.send', {
      ...(conversationId ? { conversationId } : {}),
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

export async function stopRun(): Promise<void> {
  const run = useChat.getState().run
  if (!run) return
  try {
    await bureau.invoke('chat.cancel', { runId: run.runId })
  } catch (error) {
    useChat.getState().setProblem(problemFrom(error))
  }
}

export async function answerQuestion(input: string): Promise<boolean> {
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
