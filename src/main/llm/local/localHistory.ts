import type { ChatHistoryItem } from 'node-llama-cpp'
import type { ChatMessage } from '../types'

/**
 * The provider-neutral messages as node-llama-cpp's chat history (it renders the model's own chat
 * template). Consecutive system messages are joined; tool results become user messages, as in the
 * JSON protocol; an empty model turn is appended for the answer.
 */
export function toLocalHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = []
  for (const message of messages) {
    const last = history.at(-1)
    if (message.role === 'system') {
      if (last?.type === 'system' && typeof last.text === 'string')
        last.text = `${last.text}\n\n${message.content}`
      else history.push({ type: 'system', text: message.content })
    } else if (message.role === 'user') {
      history.push({ type: 'user', text: message.content })
    } else if (message.role === 'tool') {
      history.push({ type: 'user', text: `Result of ${message.name}:\n${message.content}` })
    } else {
      history.push({ type: 'model', response: [message.content] })
    }
  }
  history.push({ type: 'model', response: [] })
  return history
}
