import type { Message, Tool } from 'ollama'
import { argumentsObject } from '../toolProtocol/jsonObject'
import type { ChatMessage, ToolSpec } from '../types'
import { imageBase64 } from './imageSupport'

export function toOllamaMessages(messages: readonly ChatMessage[]): Message[] {
  return messages.map((message): Message => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content }
      case 'user':
        return {
          role: 'user',
          content: message.content,
          // Base64 strings: the library would otherwise re-encode Uint8Arrays itself.
          ...(message.images?.length && { images: message.images.map(imageBase64) }),
        }
      case 'assistant':
        return {
          role: 'assistant',
          content: message.content,
          ...(message.toolCalls?.length && {
            tool_calls: message.toolCalls.map((call) => ({
              function: { name: call.name, arguments: argumentsObject(call.arguments) },
            })),
          }),
        }
      default:
        return { role: 'tool', content: message.content, tool_name: message.name }
    }
  })
}

export function toOllamaTools(tools: readonly ToolSpec[]): Tool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters as Tool['function']['parameters'],
    },
  }))
}
