import type { ChatImage, ChatMessage, ToolSpec } from '../types'
import { imageDataUri } from './imageSupport'

export type OpenAiContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }

export type OpenAiMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAiContentPart[] }
  | {
      role: 'assistant'
      content: string | null
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>
    }
  | { role: 'tool'; tool_call_id: string; content: string }

export function toOpenAiMessages(messages: readonly ChatMessage[]): OpenAiMessage[] {
  return messages.map((message): OpenAiMessage => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content }
      case 'user':
        return { role: 'user', content: userContent(message.content, message.images) }
      case 'assistant': {
        const calls = message.toolCalls ?? []
        if (calls.length === 0) return { role: 'assistant', content: message.content }
        return {
          role: 'assistant',
          content: message.content === '' ? null : message.content,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments || '{}' },
          })),
        }
      }
      default:
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content }
    }
  })
}

/** Plain text stays a string; with images the content becomes parts, the pictures as `data:` URIs. */
function userContent(text: string, images: readonly ChatImage[] | undefined): string | OpenAiContentPart[] {
  if (!images?.length) return text
  return [
    ...(text ? [{ type: 'text' as const, text }] : []),
    ...images.map((image) => ({ type: 'image_url' as const, image_url: { url: imageDataUri(image) } })),
  ]
}

export function toOpenAiTools(tools: readonly ToolSpec[]) {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }))
}

/** OpenAI refuses `response_format: json_object` unless the word "JSON" appears in the messages. */
export function mentionsJson(messages: readonly ChatMessage[]): boolean {
  return messages.some((message) => /json/i.test(message.content))
}
