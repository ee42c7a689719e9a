import type { ChatMessage } from '../types'
import { estimateMessagesTokens } from './estimateTokens'

export interface TrimResult {
  messages: ChatMessage[]
  /** How many messages were dropped. */
  dropped: number
}

/** Groups messages so that each group starts with a message of `role` (a tool call stays with its results). */
function groupsStartingWith(messages: readonly ChatMessage[], role: ChatMessage['role']): ChatMessage[][] {
  const groups: ChatMessage[][] = []
  for (const message of messages) {
    const current = groups.at(-1)
    if (message.role === role || !current) groups.push([message])
    else current.push(message)
  }
  return groups
}

/**
 * Drops the oldest turns until the history (system messages excluded) fits `budget` tokens, going
 * down to `target` (a lower mark, so a cached prefix stays stable for a while after a trim).
 * Earlier turns go first (a user message with its answers and tool exchanges), then the oldest tool
 * exchanges of the current turn. Never dropped: the last user message and the newest exchange after
 * it. A tool call is never separated from its results.
 */
export function trimHistory(messages: readonly ChatMessage[], budget: number, target = budget): TrimResult {
  let total = estimateMessagesTokens(messages)
  if (total <= budget) return { messages: [...messages], dropped: 0 }
  const lastUser = messages.findLastIndex((m) => m.role === 'user')
  const earlier = groupsStartingWith(messages.slice(0, Math.max(0, lastUser)), 'user')
  const pinned = lastUser >= 0 ? [messages[lastUser] as ChatMessage] : []
  const exchanges = groupsStartingWith(messages.slice(lastUser + 1), 'assistant')
  const droppable = [...earlier, ...exchanges.slice(0, -1)]
  let drop = 0
  while (total > target && drop < droppable.length) {
    total -= estimateMessagesTokens(droppable[drop] as ChatMessage[])
    drop++
  }
  const keptEarlier = earlier.slice(Math.min(drop, earlier.length)).flat()
  const keptExchanges = exchanges.slice(Math.max(0, drop - earlier.length)).flat()
  const kept = [...keptEarlier, ...pinned, ...keptExchanges]
  return { messages: kept, dropped: messages.length - kept.length }
}
