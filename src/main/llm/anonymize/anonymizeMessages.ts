import type { ChatMessage } from '../types'
import type { Anonymizer } from './anonymizer'

/** Every text the provider will see, with registered terms replaced (tool-call arguments included). */
export function anonymizeMessages(messages: readonly ChatMessage[], anonymizer: Anonymizer): ChatMessage[] {
  return messages.map((message): ChatMessage => {
    const content = anonymizer.anonymize(message.content)
    if (message.role !== 'assistant' || !message.toolCalls?.length) return { ...message, content }
    return {
      ...message,
      content,
      toolCalls: message.toolCalls.map((call) => ({
        ...call,
        arguments: anonymizer.anonymize(call.arguments),
      })),
    }
  })
}
