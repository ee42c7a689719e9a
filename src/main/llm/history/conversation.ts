import type { ChatMessage, ToolCall } from '../types'
import { estimateMessagesTokens, estimateTextTokens } from './estimateTokens'
import { trimHistory } from './trimHistory'

/** A user message plus, in `prefix`/`anthropic` caching, the per-call context frozen onto it. */
export interface UserTurn {
  role: 'user'
  content: string
  /** Dynamic context (instructions, attachment table of contents) attached when the turn was first sent. */
  context?: string
}

export type HistoryMessage =
  | UserTurn
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string }

export function userContent(turn: UserTurn): string {
  return turn.context ? `${turn.content}\n\n${turn.context}` : turn.content
}

export function toChatMessage(message: HistoryMessage): ChatMessage {
  return message.role === 'user' ? { role: 'user', content: userContent(message) } : message
}

/**
 * The history of one session as the model sees it (clear text; anonymization happens on the way
 * out). The system prompt is kept apart: it is never trimmed.
 */
export class Conversation {
  private items: HistoryMessage[] = []
  /** Messages dropped by trimming so far. */
  dropped = 0

  constructor(public system: string) {}

  get messages(): readonly HistoryMessage[] {
    return this.items
  }

  addUser(content: string): void {
    this.items.push({ role: 'user', content })
  }

  addAssistant(content: string, toolCalls: ToolCall[] = []): void {
    this.items.push(
      toolCalls.length > 0 ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content },
    )
  }

  /** The result of one tool call, answered by id (the name is kept for protocols that want it). */
  addToolResult(toolCallId: string, name: string, content: string): void {
    this.items.push({ role: 'tool', toolCallId, name, content })
  }

  /** The last user turn, if it is not followed by another user turn. */
  lastUserTurn(): UserTurn | undefined {
    const index = this.items.findLastIndex((m) => m.role === 'user')
    return index < 0 ? undefined : (this.items[index] as UserTurn)
  }

  /** Estimated tokens of the system prompt and the history. */
  estimateTokens(): number {
    return estimateTextTokens(this.system) + 4 + estimateMessagesTokens(this.items.map(toChatMessage))
  }

  /**
   * Trims the oldest turns so system + history fit `budget` tokens; trims down to 80 % of it so the
   * next calls keep a stable prefix. Returns how many messages were dropped.
   */
  fit(budget: number): number {
    const systemTokens = estimateTextTokens(this.system) + 4
    const available = Math.max(0, budget - systemTokens)
    const chat = this.items.map(toChatMessage)
    const result = trimHistory(chat, available, Math.floor(available * 0.8))
    if (result.dropped === 0) return 0
    const kept = new Set(result.messages)
    this.items = this.items.filter((_, index) => kept.has(chat[index] as ChatMessage))
    this.dropped += result.dropped
    return result.dropped
  }
}
