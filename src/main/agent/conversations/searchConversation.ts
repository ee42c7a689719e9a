import { activePath, normalizeTree } from '../../../shared/chat/conversationTree'
import type { Conversation, SearchHit } from '../../../shared/ipc'

const CONTEXT = 40

function snippetAt(text: string, start: number, length: number): SearchHit {
  const from = Math.max(0, start - CONTEXT)
  const to = Math.min(text.length, start + length + CONTEXT)
  const prefix = from > 0 ? '…' : ''
  const body = text.slice(from, to).replace(/\s+/g, ' ')
  // Whitespace runs before the match shrink too: measure the start in the cleaned text.
  const before = text.slice(from, start).replace(/\s+/g, ' ')
  const matched = text.slice(start, start + length).replace(/\s+/g, ' ')
  const s = prefix.length + before.length
  return { snippet: `${prefix}${body}${to < text.length ? '…' : ''}`, start: s, end: s + matched.length }
}

/**
 * The first place a conversation matches a query (case-insensitive): its title, else the messages of
 * the branch on screen, else any other branch. Undefined when it does not match.
 */
export function searchConversation(conversation: Conversation, query: string): SearchHit | undefined {
  const needle = query.trim().toLowerCase()
  if (!needle) return undefined
  const titleAt = conversation.title.toLowerCase().indexOf(needle)
  if (titleAt >= 0) return snippetAt(conversation.title, titleAt, needle.length)
  const tree = normalizeTree(conversation.messages, conversation.leafId)
  const shown = activePath(tree)
  const rest = tree.messages.filter((m) => !shown.includes(m))
  for (const message of [...shown, ...rest]) {
    const at = message.text.toLowerCase().indexOf(needle)
    if (at >= 0) return { messageId: message.id, ...snippetAt(message.text, at, needle.length) }
  }
  return undefined
}
