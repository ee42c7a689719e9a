import { activePath, normalizeTree } from '../../../shared/chat/conversationTree'
import type { AgentStep, ChatMessage, Conversation } from '../../../shared/ipc'

const escapeCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

function stepsTable(steps: readonly AgentStep[]): string {
  if (steps.length === 0) return ''
  const rows = steps.map((step) => {
    const time = step.durationMs !== undefined ? `${Math.round(step.durationMs)} ms` : ''
    const note = step.error ?? ''
    return `| ${escapeCell(step.method)} | ${step.status} | ${time} | ${escapeCell(note).slice(0, 200)} |`
  })
  return ['**Steps**', '', '| tool | status | time | note |', '|---|---|---:|---|', ...rows, ''].join('\n')
}

function messageMarkdown(message: ChatMessage): string {
  const who = message.role === 'user' ? 'You' : 'Bureau'
  const parts = [`## ${who} · ${message.createdAt.slice(0, 16).replace('T', ' ')}`, '']
  if (message.attachments.length > 0)
    parts.push(`Attached: ${message.attachments.map((a) => a.agentPath ?? a.name).join(', ')}`, '')
  parts.push(stepsTable(message.steps))
  parts.push(message.text.trim() || '_(no text)_', '')
  if (message.files.length > 0) parts.push(`Files: ${message.files.map((f) => f.agentPath).join(', ')}`, '')
  if (message.error) parts.push(`> Error: ${message.error}`, '')
  return parts.join('\n')
}

/** The conversation as it reads on screen: one section per message, answers' Markdown as it is. */
export function conversationMarkdown(conversation: Conversation, messageId?: string): string {
  // The branch on screen: other versions of an answer are not part of the conversation as read.
  const shown = activePath(normalizeTree(conversation.messages, conversation.leafId))
  const messages = messageId ? conversation.messages.filter((m) => m.id === messageId) : shown
  return messages.map(messageMarkdown).join('\n\n')
}
