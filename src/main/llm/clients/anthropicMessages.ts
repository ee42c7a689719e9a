import { argumentsObject } from '../toolProtocol/jsonObject'
import type { CacheType, ChatMessage, ToolSpec } from '../types'
import { imageBase64 } from './imageSupport'

type CacheControl = { type: 'ephemeral' }
export type AnthropicBlock =
  | { type: 'text'; text: string; cache_control?: CacheControl }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string }
export interface AnthropicMessage {
  role: 'user' | 'assistant'
  content: AnthropicBlock[]
}
export interface AnthropicTool {
  name: string
  description: string
  input_schema: Record<string, unknown>
  cache_control?: CacheControl
}

/** Anthropic allows at most this many `cache_control` breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4

export function toAnthropicSystem(messages: readonly ChatMessage[], cacheType: CacheType) {
  const blocks: Array<{ type: 'text'; text: string; cache_control?: CacheControl }> = messages
    .filter((m) => m.role === 'system')
    .map((m) => ({ type: 'text', text: m.content }))
  const last = blocks.at(-1)
  if (last && cacheType === 'anthropic') last.cache_control = { type: 'ephemeral' }
  return blocks
}

function blocksOf(message: ChatMessage): AnthropicBlock[] {
  switch (message.role) {
    case 'user':
      return [
        // Anthropic's own advice: images before the text that asks about them.
        ...(message.images ?? []).map((image) => ({
          type: 'image' as const,
          source: { type: 'base64' as const, media_type: image.mimeType, data: imageBase64(image) },
        })),
        ...(message.content !== '' || !message.images?.length
          ? [{ type: 'text' as const, text: message.content }]
          : []),
      ]
    case 'assistant':
      return [
        ...(message.content !== '' ? [{ type: 'text' as const, text: message.content }] : []),
        ...(message.toolCalls ?? []).map((call) => ({
          type: 'tool_use' as const,
          id: call.id,
          name: call.name,
          input: argumentsObject(call.arguments),
        })),
      ]
    case 'tool':
      return [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }]
    default:
      return []
  }
}

/**
 * Anthropic wants strictly alternating user/assistant turns: tool results travel in a user turn,
 * and consecutive turns of one role are merged.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = []
  for (const message of messages) {
    if (message.role === 'system') continue
    const role = message.role === 'assistant' ? 'assistant' : 'user'
    const blocks = blocksOf(message)
    if (blocks.length === 0) continue
    const previous = out.at(-1)
    if (previous?.role === role) previous.content.push(...blocks)
    else out.push({ role, content: blocks })
  }
  return out
}

export function toAnthropicTools(tools: readonly ToolSpec[], cacheType: CacheType): AnthropicTool[] {
  const out: AnthropicTool[] = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.parameters },
  }))
  const last = out.at(-1)
  if (last && cacheType === 'anthropic') last.cache_control = { type: 'ephemeral' }
  return out
}

/** No native JSON mode: the instruction rides on the last user turn of this request only. */
export function withJsonInstruction(messages: AnthropicMessage[]): AnthropicMessage[] {
  const last = messages.at(-1)
  if (last?.role !== 'user') return messages
  const instruction: AnthropicBlock = { type: 'text', text: 'Answer with one JSON object and nothing else.' }
  return [...messages.slice(0, -1), { role: 'user', content: [...last.content, instruction] }]
}
