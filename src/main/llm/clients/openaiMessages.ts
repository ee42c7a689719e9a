import type { ChatMessage, ToolSpec } from '../types'

export type OpenAiMessage =
  | { role: 'system' | 'user'; content: string }
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
      case 'user':
        return { role: message.role, content: message.content }
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
