import type { ResolvedError } from './errorBodies'
import type { ReplyPlan } from './replyPlan'
import type { Frame } from './streamFrames'
import type { Protocol } from './types'

/** How one wire protocol (OpenAI, Anthropic, Ollama) reads a chat request and renders a reply plan. */
export interface ChatProtocol {
  protocol: Protocol
  streamContentType: string
  wantsStream(body: Record<string, unknown>): boolean
  messages(body: Record<string, unknown>): unknown[]
  tools(body: Record<string, unknown>): unknown[]
  lastUserText(body: Record<string, unknown>): string
  errorBody(error: ResolvedError): unknown
  /** The non-stream response body. */
  completion(plan: ReplyPlan): unknown
  /** The complete successful stream. */
  streamFrames(plan: ReplyPlan, body: Record<string, unknown>): Frame[]
  /** An in-band error event (mid-stream failure). */
  streamErrorFrame(plan: ReplyPlan, error: { message: string; type: string }): string
  /** A stream event whose JSON is cut off. */
  brokenFrame(plan: ReplyPlan): string
}

export function arrayField(body: Record<string, unknown>, key: string): unknown[] {
  const value = body[key]
  return Array.isArray(value) ? value : []
}

/** Text of the last `user` message: string content or the text parts of an array content. */
export function lastUserText(messages: unknown[]): string {
  for (let at = messages.length - 1; at >= 0; at--) {
    const message = messages[at] as { role?: unknown; content?: unknown } | null
    if (message?.role !== 'user') continue
    if (typeof message.content === 'string') return message.content
    if (!Array.isArray(message.content)) return ''
    return message.content
      .map((part: { type?: unknown; text?: unknown } | null) =>
        part?.type === 'text' && typeof part.text === 'string' ? part.text : '',
      )
      .join('')
  }
  return ''
}
