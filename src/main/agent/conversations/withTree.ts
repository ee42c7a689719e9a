import { normalizeTree } from '../../../shared/chat/conversationTree'
import type { Conversation } from '../../../shared/ipc'

/**
 * The conversation with every message's `parentId` and the `leafId` filled in (files from before the
 * tree read as one line). Messages appended without a parent continue the branch that was on screen.
 */
export function withTree(conversation: Conversation): Conversation {
  const known = conversation.messages.filter((m) => m.parentId !== undefined)
  const appended = conversation.messages.filter((m) => m.parentId === undefined)
  if (known.length === 0 || appended.length === 0) {
    const tree = normalizeTree(conversation.messages, conversation.leafId)
    return { ...conversation, messages: tree.messages, leafId: tree.leafId }
  }
  let parent = conversation.leafId ?? null
  const messages = conversation.messages.map((m) => {
    if (m.parentId !== undefined) return m
    const linked = { ...m, parentId: parent }
    parent = m.id
    return linked
  })
  return { ...conversation, messages, leafId: parent }
}
