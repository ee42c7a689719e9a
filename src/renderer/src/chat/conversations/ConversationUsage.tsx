import type { ChatMessage } from '../../../../shared/ipc'

export interface UsageTotal {
  inputTokens: number
  outputTokens: number
  cachedInputTokens: number
}

/** What the conversation's answers cost, summed over the messages that report usage. */
export function conversationUsage(messages: readonly ChatMessage[]): UsageTotal {
  const total: UsageTotal = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }
  for (const { usage } of messages) {
    if (!usage) continue
    total.inputTokens += usage.inputTokens
    total.outputTokens += usage.outputTokens
    total.cachedInputTokens += usage.cachedInputTokens ?? 0
  }
  return total
}

/** The running total under the last message; cached tokens shown only where the provider reports them. */
export function ConversationUsage({ messages }: { messages: readonly ChatMessage[] }) {
  const total = conversationUsage(messages)
  if (total.inputTokens + total.outputTokens === 0) return null
  return (
    <p className="usage conversation-usage" data-testid="conversation-usage">
      This conversation: {total.inputTokens.toLocaleString()} in · {total.outputTokens.toLocaleString()} out
      {total.cachedInputTokens > 0 ? ` · ${total.cachedInputTokens.toLocaleString()} cached` : ''}
    </p>
  )
}
