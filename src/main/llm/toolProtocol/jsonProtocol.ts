import { extractJsonObject } from '../../../shared/json'
import type { ChatMessage, ToolCall, ToolSpec } from '../types'

/** The method that ends an agent run in the JSON protocol: `{"method": "done", "message": "..."}`. */
export const DONE_METHOD = 'done'

interface SchemaProperty {
  type?: unknown
  description?: unknown
  enum?: unknown
  default?: unknown
}

function describeParameters(parameters: Record<string, unknown>): string[] {
  const properties = (parameters.properties ?? {}) as Record<string, SchemaProperty>
  const required = new Set(Array.isArray(parameters.required) ? (parameters.required as string[]) : [])
  return Object.entries(properties).map(([name, schema]) => {
    const type = Array.isArray(schema.enum)
      ? schema.enum.map((v) => JSON.stringify(v)).join(' | ')
      : Array.isArray(schema.type)
        ? schema.type.join(' | ')
        : String(schema.type ?? 'any')
    const flags = required.has(name)
      ? 'required'
      : schema.default !== undefined
        ? `default ${JSON.stringify(schema.default)}`
        : 'optional'
    const description = typeof schema.description === 'string' ? ` — ${schema.description}` : ''
    return `    - ${name}: ${type} (${flags})${description}`
  })
}

/** The system-prompt section for models without native tool calling. */
export function jsonProtocolInstructions(tools: readonly ToolSpec[]): string {
  const methods = tools.map((tool) =>
    [`- ${tool.name}: ${tool.description.split('\n')[0]}`, ...describeParameters(tool.parameters)].join('\n'),
  )
  return [
    '## How to answer',
    'Answer with exactly one JSON object and nothing else: no prose, no code fence.',
    'To call a method: {"method": "<method name>", "<parameter>": <value>, ...}',
    `When the task is finished: {"method": "${DONE_METHOD}", "message": "<your answer to the user>"}`,
    'After each call you get its result; then answer with the next JSON object.',
    '',
    '## Methods',
    ...methods,
  ].join('\n')
}

export type JsonProtocolReply =
  | { kind: 'call'; call: ToolCall }
  | { kind: 'text'; text: string }
  | { kind: 'invalid'; error: string }

/** Keys models use for the method name when they echo a native tool call. */
const ECHO_NAME_KEYS = ['tool', 'name', 'function']

function call(object: Record<string, unknown>, nameKey: string, id: string): JsonProtocolReply {
  const { [nameKey]: name, ...args } = object
  return { kind: 'call', call: { id, name: name as string, arguments: JSON.stringify(args) } }
}

/**
 * Reads one protocol answer: `{"method": "x", ...args}`, `{"done": "message"}` /
 * `{"done": true, "message": ...}`, or the echo form `{"name": "x", "arguments": {...}}`.
 * Text without any JSON object is a plain answer; an object without a method is invalid.
 */
export function parseJsonProtocolReply(text: string, id: string): JsonProtocolReply {
  const object = extractJsonObject(text)
  if (!object)
    return text.trim() === '' ? { kind: 'invalid', error: 'The answer was empty.' } : { kind: 'text', text }
  if (typeof object.method === 'string' && object.method !== '') return call(object, 'method', id)
  if ('done' in object) {
    const { done, ...rest } = object
    const args =
      typeof done === 'string'
        ? { message: done, ...rest }
        : typeof done === 'object' && done !== null
          ? { ...done, ...rest }
          : rest
    return { kind: 'call', call: { id, name: DONE_METHOD, arguments: JSON.stringify(args) } }
  }
  const nameKey = ECHO_NAME_KEYS.find((key) => typeof object[key] === 'string' && object[key] !== '')
  if (nameKey) return call(object, nameKey, id)
  return {
    kind: 'invalid',
    error: `The JSON object has no "method" field. Answer with {"method": "<method name>", ...arguments} or {"method": "${DONE_METHOD}", "message": "..."}.`,
  }
}

/**
 * The history in JSON-protocol form: the model's own answers stay as the JSON text it wrote, tool
 * results come back as user messages naming the method.
 */
export function toJsonProtocolMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((message) => {
    if (message.role === 'assistant') return { role: 'assistant', content: message.content }
    if (message.role === 'tool')
      return { role: 'user', content: `Result of ${message.name}:\n${message.content}` }
    return message
  })
}
