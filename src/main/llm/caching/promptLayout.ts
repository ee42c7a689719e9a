import { type Conversation, toChatMessage } from '../history/conversation'
import type { CacheType, ChatMessage } from '../types'

/**
 * Where the per-call dynamic context (agent instructions, attachment table of contents) goes:
 * - `none`: at the start of the prompt, in front of the system prompt, fresh on every call and never
 *   stored in the history;
 * - `prefix` and `anthropic`: appended to the last user message the first time that message is sent
 *   and frozen there, so everything before the newest message is byte-identical from call to call
 *   (`anthropic` additionally marks cache breakpoints, see the Anthropic driver).
 */
export function layoutMessages(
  conversation: Conversation,
  system: string,
  cacheType: CacheType,
  dynamicContext: string | undefined,
): ChatMessage[] {
  const history = conversation.messages.map(toChatMessage)
  if (cacheType === 'none') {
    const head = dynamicContext ? `${dynamicContext}\n\n${system}` : system
    return [{ role: 'system', content: head }, ...history]
  }
  return [{ role: 'system', content: system }, ...history]
}

/** In `prefix`/`anthropic` mode: freezes the dynamic context onto the last user turn if it has none yet. */
export function attachDynamicContext(
  conversation: Conversation,
  cacheType: CacheType,
  dynamicContext: string | undefined,
) {
  if (cacheType === 'none' || !dynamicContext) return
  const turn = conversation.lastUserTurn()
  if (turn && turn.context === undefined) turn.context = dynamicContext
}
