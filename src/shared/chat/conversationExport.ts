import { z } from 'zod'
import { type AgentStep, type ChatMessage, Conversation } from '../ipc/routes/chat'
import { activePath, normalizeTree } from './conversationTree'

export const EXPORT_FORMAT = 'bureau-conversation'
export const EXPORT_VERSION = 1

/** The JSON export: every branch, attachments by name and path (never their bytes), step receipts. */
export const ConversationExport = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.string(),
  conversation: Conversation,
})
export type ConversationExport = z.infer<typeof ConversationExport>

export function toExportJson(conversation: Conversation, now = new Date()): string {
  const tree = normalizeTree(conversation.messages, conversation.leafId)
  const data: ConversationExport = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    conversation: { ...conversation, messages: tree.messages, leafId: tree.leafId },
  }
  return `${JSON.stringify(data, null, 2)}\n`
}

/** Reads an export back (zod-checked); the error names the first problem. Messages keep their ids. */
export function parseExportJson(text: string): Conversation {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new Error(`This file is not JSON: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    })
  }
  const parsed = ConversationExport.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : ''
    throw new Error(`This is not a Bureau conversation export${where}: ${issue?.message ?? 'invalid'}.`)
  }
  const { conversation } = parsed.data
  const tree = normalizeTree(conversation.messages, conversation.leafId)
  return { ...conversation, messages: tree.messages, leafId: tree.leafId }
}

const RECEIPT_CHARS = 1200

function receiptOf(step: AgentStep): string {
  const body = step.status === 'ok' ? JSON.stringify(step.result ?? null) : (step.error ?? step.status)
  const short = body.length > RECEIPT_CHARS ? `${body.slice(0, RECEIPT_CHARS)}…` : body
  return `- \`${step.method}\` ${step.status}: ${short.replace(/\n/g, ' ')}`
}

function messageMarkdown(message: ChatMessage): string {
  const lines = [`## ${message.role === 'user' ? 'You' : 'Bureau'}`, '']
  if (message.attachments.length > 0) {
    lines.push(
      `Attached: ${message.attachments.map((a) => (a.agentPath ? `${a.name} (${a.agentPath})` : a.name)).join(', ')}`,
      '',
    )
  }
  if (message.steps.length > 0) lines.push('Steps:', '', ...message.steps.map(receiptOf), '')
  if (message.text) lines.push(message.text, '')
  if (message.files.length > 0)
    lines.push(`Files: ${message.files.map((f) => `${f.name} (${f.agentPath})`).join(', ')}`, '')
  if (message.status === 'error' && message.error) lines.push(`> Error: ${message.error}`, '')
  if (message.status === 'cancelled') lines.push('> Stopped', '')
  return lines.join('\n')
}

/** The branch on screen as Markdown: one `##` section per message, attachments, receipts and files named. */
export function toMarkdown(conversation: Conversation): string {
  const path = activePath(normalizeTree(conversation.messages, conversation.leafId))
  return `# ${conversation.title}\n\n${path.map(messageMarkdown).join('\n')}`
}

/** A file name from the title: letters, digits, spaces and dashes, at most 60 characters. */
export function exportFileName(conversation: Conversation, extension: 'md' | 'json'): string {
  const base = conversation.title
    .replace(/[^\p{L}\p{N} _-]+/gu, ' ')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60)
  return `${base || 'conversation'}.${extension}`
}
