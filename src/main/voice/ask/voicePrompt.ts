import type { ChatMessage } from '../../../shared/ipc'

const MAX_TURNS = 8
const MAX_CHARS = 6_000

/**
 * The prompt for a spoken follow-up. `chatStream` takes no history, so the last turns of the
 * conversation travel in the prompt itself (an interrupted answer counts only as far as it was
 * spoken). Kept in this one place so it can go once chatStream accepts a history.
 */
export function composeVoicePrompt(earlier: readonly ChatMessage[], text: string): string {
  const turns: string[] = []
  let chars = 0
  for (let i = earlier.length - 1; i >= 0 && turns.length < MAX_TURNS; i--) {
    const message = earlier[i] as ChatMessage
    const content = (
      message.role === 'assistant' ? (message.spokenText ?? message.text) : message.text
    ).trim()
    if (!content) continue
    const line = `${message.role === 'user' ? 'User' : 'Assistant'}: ${content}`
    if (chars + line.length > MAX_CHARS) break
    turns.unshift(line)
    chars += line.length
  }
  if (turns.length === 0) return text
  return `Earlier in this conversation:\n${turns.join('\n')}\n\nThe user now says: ${text}`
}
