import type { ChatMessage } from '../ipc/routes/chat'

/**
 * A conversation is a tree of messages kept in one array (oldest first). Each message names the one it
 * follows (`parentId`); the line on screen is the path from the root to `leafId`. Regenerating adds an
 * assistant sibling (a version), editing a question adds a user sibling (a branch). Pure functions:
 * the main process and the renderer use the same ones.
 */
export interface MessageTree {
  messages: ChatMessage[]
  leafId: string | null
}

/**
 * Fills in what files written before the tree lack: a message without `parentId` follows the one before
 * it in the array, and a missing or unknown `leafId` is the last message. Nothing is dropped.
 */
export function normalizeTree(messages: readonly ChatMessage[], leafId?: string | null): MessageTree {
  const ids = new Set(messages.map((m) => m.id))
  const out = messages.map((message, index) => {
    const parent = message.parentId
    if (parent === null || (parent !== undefined && ids.has(parent))) return message
    return { ...message, parentId: index === 0 ? null : (messages[index - 1]?.id ?? null) }
  })
  const leaf = leafId && ids.has(leafId) ? leafId : (out[out.length - 1]?.id ?? null)
  return { messages: out, leafId: leaf }
}

function byId(messages: readonly ChatMessage[]): Map<string, ChatMessage> {
  return new Map(messages.map((m) => [m.id, m]))
}

/** The messages from the first one to `leafId`, in order. */
export function activePath(tree: MessageTree): ChatMessage[] {
  const index = byId(tree.messages)
  const path: ChatMessage[] = []
  const seen = new Set<string>()
  let current = tree.leafId === null ? undefined : index.get(tree.leafId)
  while (current && !seen.has(current.id)) {
    seen.add(current.id)
    path.push(current)
    current = current.parentId ? index.get(current.parentId) : undefined
  }
  return path.reverse()
}

export function childrenOf(messages: readonly ChatMessage[], parentId: string | null): ChatMessage[] {
  return messages.filter((m) => (m.parentId ?? null) === parentId)
}

/** The versions of a message: itself and the messages of the same role after the same parent. */
export function siblingsOf(messages: readonly ChatMessage[], id: string): ChatMessage[] {
  const message = messages.find((m) => m.id === id)
  if (!message) return []
  return childrenOf(messages, message.parentId ?? null).filter((m) => m.role === message.role)
}

/** Where a message stands among its versions: `{index: 0-based, count}`. */
export function versionOf(messages: readonly ChatMessage[], id: string): { index: number; count: number } {
  const siblings = siblingsOf(messages, id)
  return {
    index: Math.max(
      0,
      siblings.findIndex((m) => m.id === id),
    ),
    count: siblings.length,
  }
}

/** The newest end below a message: follow the newest child down. */
export function newestLeafUnder(messages: readonly ChatMessage[], id: string): string {
  let current = id
  for (let depth = 0; depth <= messages.length; depth++) {
    const children = childrenOf(messages, current)
    const newest = children[children.length - 1]
    if (!newest) return current
    current = newest.id
  }
  return current
}

/** Shows the branch through `id` (a version picked with ‹ ›, or a search hit on another branch). */
export function selectThrough(tree: MessageTree, id: string): MessageTree {
  if (!tree.messages.some((m) => m.id === id)) return tree
  const onPath = activePath(tree).some((m) => m.id === id)
  return onPath ? tree : { ...tree, leafId: newestLeafUnder(tree.messages, id) }
}

function descendants(messages: readonly ChatMessage[], id: string): Set<string> {
  const out = new Set<string>([id])
  let grew = true
  while (grew) {
    grew = false
    for (const m of messages) {
      if (m.parentId && out.has(m.parentId) && !out.has(m.id)) {
        out.add(m.id)
        grew = true
      }
    }
  }
  return out
}

/**
 * Deletes a question and its answers (every version). The turns after the answer on screen move up to
 * the question's parent, so the rest of the conversation stays; branches under other versions go.
 * `messageId` may name the question or one of its answers.
 */
export function deletePair(tree: MessageTree, messageId: string): MessageTree {
  const target = tree.messages.find((m) => m.id === messageId)
  if (!target) return tree
  const user =
    target.role === 'user' ? target : tree.messages.find((m) => m.id === target.parentId && m.role === 'user')
  if (!user) return deleteSubtree(tree, target.id)
  const parent = user.parentId ?? null
  const path = activePath(tree)
  const answers = childrenOf(tree.messages, user.id)
  const shown = answers.find((a) => path.some((m) => m.id === a.id)) ?? answers[answers.length - 1]
  const removed = new Set<string>([user.id])
  for (const answer of answers) {
    if (answer.id === shown?.id) removed.add(answer.id)
    else for (const id of descendants(tree.messages, answer.id)) removed.add(id)
  }
  const messages = tree.messages
    .filter((m) => !removed.has(m.id))
    .map((m) => (m.parentId && removed.has(m.parentId) ? { ...m, parentId: parent } : m))
  const leafGone = tree.leafId !== null && removed.has(tree.leafId)
  return { messages, leafId: leafGone ? newestOrNull(messages, parent) : tree.leafId }
}

function newestOrNull(messages: readonly ChatMessage[], parent: string | null): string | null {
  if (parent !== null) return parent
  const roots = childrenOf(messages, null)
  const newest = roots[roots.length - 1]
  return newest ? newestLeafUnder(messages, newest.id) : null
}

function deleteSubtree(tree: MessageTree, id: string): MessageTree {
  const removed = descendants(tree.messages, id)
  const parent = tree.messages.find((m) => m.id === id)?.parentId ?? null
  const messages = tree.messages.filter((m) => !removed.has(m.id))
  const leafGone = tree.leafId !== null && removed.has(tree.leafId)
  return { messages, leafId: leafGone ? newestOrNull(messages, parent) : tree.leafId }
}
