import type { ChatMessage, ToolSpec } from '../types'

/** Per-message framing (role markers, separators) most chat templates add. */
const MESSAGE_OVERHEAD = 4
/** A picture costs roughly this much on the big providers (Anthropic ~1,600 at 1.15 MP, OpenAI high detail ~1,100). */
const IMAGE_TOKENS = 1_600

/**
 * A fast, tokenizer-free estimate: about 4 characters per token for Latin text, 1 token per
 * character for CJK and similar scripts (where 4 chars/token would badly under-count).
 */
export function estimateTextTokens(text: string): number {
  let wide = 0
  for (const char of text) if (char.codePointAt(0)! >= 0x2e80) wide++
  return Math.ceil((text.length - wide) / 4) + wide
}

export function estimateMessageTokens(message: ChatMessage): number {
  let tokens = MESSAGE_OVERHEAD + estimateTextTokens(message.content)
  if (message.role === 'assistant')
    for (const call of message.toolCalls ?? []) tokens += estimateTextTokens(call.name + call.arguments) + 8
  if (message.role === 'user') tokens += (message.images?.length ?? 0) * IMAGE_TOKENS
  return tokens
}

export function estimateMessagesTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0)
}

export function estimateToolsTokens(tools: readonly ToolSpec[] | undefined): number {
  // What providers are sent: a command tool's prefixes stay local.
  return tools
    ? estimateTextTokens(
        JSON.stringify(tools.map(({ name, description, parameters }) => ({ name, description, parameters }))),
      )
    : 0
}
