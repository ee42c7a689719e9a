import { describe, expect, it } from 'vitest'
import {
  activePath,
  deletePair,
  type MessageTree,
  normalizeTree,
  selectThrough,
  siblingsOf,
  versionOf,
} from '../../../src/shared/chat/conversationTree'
import type { ChatMessage } from '../../../src/shared/ipc'

function msg(id: string, role: ChatMessage['role'], parentId?: string | null): ChatMessage {
  return {
    id,
    role,
    text: `text of ${id}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    status: 'done',
    attachments: [],
    steps: [],
    files: [],
    ...(parentId !== undefined ? { parentId } : {}),
  }
}

const ids = (messages: readonly ChatMessage[]) => messages.map((m) => m.id)

/** u1 → a1 → u2 → a2, then a2b (a second version of u2's answer) and u2e (an edit of u2) → a3. */
function branched(): MessageTree {
  return {
    messages: [
      msg('u1', 'user', null),
      msg('a1', 'assistant', 'u1'),
      msg('u2', 'user', 'a1'),
      msg('a2', 'assistant', 'u2'),
      msg('a2b', 'assistant', 'u2'),
      msg('u2e', 'user', 'a1'),
      msg('a3', 'assistant', 'u2e'),
    ],
    leafId: 'a3',
  }
}

describe('conversation tree', () => {
  it('reads a conversation written before the tree as one line, without losing a message', () => {
    const old = [msg('u1', 'user'), msg('a1', 'assistant'), msg('u2', 'user'), msg('a2', 'assistant')]
    const tree = normalizeTree(old, undefined)
    expect(tree.leafId).toBe('a2')
    expect(tree.messages.map((m) => m.parentId)).toEqual([null, 'u1', 'a1', 'u2'])
    expect(ids(activePath(tree))).toEqual(['u1', 'a1', 'u2', 'a2'])
    expect(tree.messages.map((m) => m.text)).toEqual(old.map((m) => m.text))
    // An unknown leaf is treated as missing.
    expect(normalizeTree(old, 'gone').leafId).toBe('a2')
    expect(normalizeTree([], undefined).leafId).toBeNull()
  })

  it('versions: answers of one question are siblings, counted and picked with selectThrough', () => {
    const tree = branched()
    expect(ids(siblingsOf(tree.messages, 'a2'))).toEqual(['a2', 'a2b'])
    expect(versionOf(tree.messages, 'a2b')).toEqual({ index: 1, count: 2 })
    expect(versionOf(tree.messages, 'u2e')).toEqual({ index: 1, count: 2 })
    expect(versionOf(tree.messages, 'u1')).toEqual({ index: 0, count: 1 })
    const first = selectThrough(tree, 'a2')
    expect(ids(activePath(first))).toEqual(['u1', 'a1', 'u2', 'a2'])
    // Picking the original question shows its newest answer.
    expect(selectThrough(tree, 'u2').leafId).toBe('a2b')
    // A message already on the path changes nothing.
    expect(selectThrough(tree, 'a1')).toBe(tree)
  })

  it('branches: an edited question keeps the old turns as another branch', () => {
    const tree = branched()
    expect(ids(activePath(tree))).toEqual(['u1', 'a1', 'u2e', 'a3'])
    expect(ids(activePath(selectThrough(tree, 'u2')))).toEqual(['u1', 'a1', 'u2', 'a2b'])
    expect(tree.messages).toHaveLength(7)
  })

  it('deleting a pair in the middle moves the later turns up; other versions and their branches go', () => {
    const tree: MessageTree = {
      messages: [
        msg('u1', 'user', null),
        msg('a1', 'assistant', 'u1'),
        msg('a1b', 'assistant', 'u1'),
        msg('x', 'user', 'a1b'),
        msg('u2', 'user', 'a1'),
        msg('a2', 'assistant', 'u2'),
      ],
      leafId: 'a2',
    }
    const after = deletePair(tree, 'a1')
    expect(ids(after.messages)).toEqual(['u2', 'a2'])
    expect(after.messages[0]?.parentId).toBeNull()
    expect(after.leafId).toBe('a2')
    expect(ids(activePath(after))).toEqual(['u2', 'a2'])
  })

  it('deleting the last pair ends the branch at the answer before it; deleting everything leaves it empty', () => {
    const tree = normalizeTree([
      msg('u1', 'user'),
      msg('a1', 'assistant'),
      msg('u2', 'user'),
      msg('a2', 'assistant'),
    ])
    const after = deletePair(tree, 'u2')
    expect(after.leafId).toBe('a1')
    expect(ids(activePath(after))).toEqual(['u1', 'a1'])
    const empty = deletePair(after, 'a1')
    expect(empty).toEqual({ messages: [], leafId: null })
  })

  it('an unknown id changes nothing', () => {
    const tree = branched()
    expect(deletePair(tree, 'nope')).toBe(tree)
    expect(selectThrough(tree, 'nope')).toBe(tree)
  })
})
