import { randomUUID } from 'node:crypto'
import { activePath } from '../../../shared/chat/conversationTree'
import { AppError } from '../../../shared/errors'
import type { ChatMessage, Conversation } from '../../../shared/ipc'
import type { Workspace } from '../../workspace'
import type { AgentAttachment, HistoryTurn } from '../types'
import { historyOf } from './historyOf'

/** What one run of a conversation needs: which messages it fills, what the model gets. */
export interface TurnPlan {
  userMessageId: string
  assistantMessageId: string
  prompt: string
  attachments: AgentAttachment[]
  history: HistoryTurn[]
  /** Messages to add (a new question and/or a new answer), and the new end of the branch. */
  added: ChatMessage[]
  leafId: string
  /** Continue: the text, steps and files the message has already, kept before what the run adds. */
  continued?: Pick<ChatMessage, 'text' | 'steps' | 'files'>
}

export const CONTINUE_PROMPT =
  'Your previous answer was cut off. Continue it exactly where it stopped, without repeating anything or adding a preface.'

export function pendingAssistant(id: string, parentId: string): ChatMessage {
  return {
    id,
    role: 'assistant',
    text: '',
    createdAt: new Date().toISOString(),
    status: 'streaming',
    attachments: [],
    steps: [],
    files: [],
    parentId,
  }
}

/** A user message as sent: its files still to be read (`pending` until the run converts them). */
export function pendingUser(
  text: string,
  attachments: ChatMessage['attachments'],
  parentId: string | null,
): ChatMessage {
  return {
    id: randomUUID(),
    role: 'user',
    text,
    createdAt: new Date().toISOString(),
    status: 'done',
    attachments,
    steps: [],
    files: [],
    parentId,
  }
}

function find(conversation: Conversation, id: string): ChatMessage {
  const message = conversation.messages.find((m) => m.id === id)
  if (!message) throw new AppError('NOT_FOUND', `There is no message "${id}" in this conversation.`)
  return message
}

/** The turns before a message, along its own branch. */
function historyBefore(conversation: Conversation, parentId: string | null | undefined): HistoryTurn[] {
  if (!parentId) return []
  return historyOf(activePath({ messages: conversation.messages, leafId: parentId }))
}

/** The question's files again, read back from where the first run saved them (`/inbox/...`). */
export async function attachmentsOf(user: ChatMessage, workspace: Workspace): Promise<AgentAttachment[]> {
  const out: AgentAttachment[] = []
  for (const meta of user.attachments) {
    if (!meta.agentPath)
      throw new AppError('NOT_FOUND', `"${meta.name}" was never saved in the workspace; attach it again.`)
    let bytes: Buffer
    try {
      bytes = await workspace.readFile(meta.agentPath)
    } catch {
      throw new AppError(
        'NOT_FOUND',
        `"${meta.name}" is no longer in the workspace (${meta.agentPath}); attach it again.`,
      )
    }
    out.push({ name: meta.name, bytes, ...(meta.mimeType ? { mimeType: meta.mimeType } : {}) })
  }
  return out
}

function pendingMeta(user: ChatMessage): ChatMessage['attachments'] {
  return user.attachments.map((a) => ({
    name: a.name,
    size: a.size,
    ...(a.mimeType ? { mimeType: a.mimeType } : {}),
    status: 'pending' as const,
  }))
}

/** A new answer to a question (the message itself, or the question an answer belongs to). */
export async function regeneratePlan(
  conversation: Conversation,
  messageId: string,
  workspace: Workspace,
): Promise<TurnPlan> {
  const target = find(conversation, messageId)
  const user = target.role === 'user' ? target : find(conversation, target.parentId ?? '')
  if (user.role !== 'user')
    throw new AppError('VALIDATION_FAILED', 'Only an answer to a question can be regenerated.')
  const assistant = pendingAssistant(randomUUID(), user.id)
  return {
    userMessageId: user.id,
    assistantMessageId: assistant.id,
    prompt: user.text,
    attachments: await attachmentsOf(user, workspace),
    history: historyBefore(conversation, user.parentId),
    added: [assistant],
    leafId: assistant.id,
  }
}

/** An edited question as a sibling of the original, with its files; the old turns stay a branch. */
export async function editPlan(
  conversation: Conversation,
  messageId: string,
  text: string,
  workspace: Workspace,
): Promise<TurnPlan> {
  const original = find(conversation, messageId)
  if (original.role !== 'user')
    throw new AppError('VALIDATION_FAILED', 'Only your own messages can be edited.')
  if (text.trim() === '' && original.attachments.length === 0)
    throw new AppError('VALIDATION_FAILED', 'Type a message or attach a file.')
  const user = pendingUser(text, pendingMeta(original), original.parentId ?? null)
  const assistant = pendingAssistant(randomUUID(), user.id)
  return {
    userMessageId: user.id,
    assistantMessageId: assistant.id,
    prompt: text,
    attachments: await attachmentsOf(original, workspace),
    history: historyBefore(conversation, original.parentId),
    added: [user, assistant],
    leafId: assistant.id,
  }
}

/** More of a stopped answer, streamed into the same message. */
export function continuePlan(conversation: Conversation, messageId: string): TurnPlan {
  const answer = find(conversation, messageId)
  if (answer.role !== 'assistant' || answer.status === 'streaming')
    throw new AppError('VALIDATION_FAILED', 'Only a finished or stopped answer can be continued.')
  if (answer.text.trim() === '')
    throw new AppError('VALIDATION_FAILED', 'This answer has no text to continue; use Retry.')
  return {
    userMessageId: answer.parentId ?? '',
    assistantMessageId: answer.id,
    prompt: CONTINUE_PROMPT,
    attachments: [],
    history: historyOf(activePath({ messages: conversation.messages, leafId: answer.id })),
    added: [],
    leafId: answer.id,
    continued: { text: answer.text, steps: answer.steps, files: answer.files },
  }
}
