import { siblingsOf } from '../../../../shared/chat/conversationTree'
import type { ChatMessage } from '../../../../shared/ipc'
import type { VersionInfo } from './MessageActions'

/** For each message on the path: its place among its versions and the neighbours ‹ › go to. */
export function versionsOf(
  all: readonly ChatMessage[],
  path: readonly ChatMessage[],
): Map<string, VersionInfo> {
  const out = new Map<string, VersionInfo>()
  for (const message of path) {
    const siblings = siblingsOf(all, message.id)
    const index = Math.max(
      0,
      siblings.findIndex((m) => m.id === message.id),
    )
    out.set(message.id, {
      index,
      count: siblings.length,
      previousId: siblings[index - 1]?.id,
      nextId: siblings[index + 1]?.id,
      ranTools: siblings.some((m) => m.steps.length > 0),
    })
  }
  return out
}

export const SINGLE: VersionInfo = { index: 0, count: 1, ranTools: false }
