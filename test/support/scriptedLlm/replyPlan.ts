import { splitFragments, splitWords } from './chunkText'
import type { Pacing, TextTurn, ToolCallsTurn, UsageOverride } from './types'
import { argumentsText } from './validateTurn'

export interface PlannedToolCall {
  index: number
  /** The scripted id, or undefined to let the protocol pick its usual prefix. */
  id: string | undefined
  name: string
  argumentsText: string
  fragments: string[]
  /** The arguments as a JSON object when they parse to one, else undefined (broken or non-object). */
  argumentsObject: Record<string, unknown> | undefined
}

export interface PlannedUsage {
  promptTokens: number
  completionTokens: number
  cachedTokens: number | undefined
  cacheCreationTokens: number | undefined
  style: NonNullable<UsageOverride['style']>
}

/** A text or tool-call turn resolved into what every protocol renders. */
export interface ReplyPlan {
  seq: number
  model: string
  created: number
  text: string
  textChunks: string[]
  toolCalls: PlannedToolCall[]
  finishReason: string
  usage: PlannedUsage
  chunkDelayMs: number
  stallAfterChunks: number | undefined
  streamError: { message: string; type: string } | undefined
}

export interface PlanContext {
  seq: number
  model: string
  promptChars: number
}

export function chunkDelayOf(pacing: Pacing): number {
  if (pacing.chunkDelayMs !== undefined) return pacing.chunkDelayMs
  if (pacing.tokensPerSecond !== undefined) return 1000 / pacing.tokensPerSecond
  return 0
}

export function buildPlan(turn: TextTurn | ToolCallsTurn, context: PlanContext): ReplyPlan {
  const text = turn.text ?? ''
  const textChunks = turn.chunks ?? splitWords(text)
  const toolCalls = 'toolCalls' in turn ? turn.toolCalls.map(planToolCall) : []
  const chunkCount = textChunks.length + toolCalls.reduce((sum, call) => sum + call.fragments.length, 0)
  const usage = turn.usage ?? {}
  return {
    seq: context.seq,
    model: turn.model ?? context.model,
    created: Math.floor(Date.now() / 1000),
    text,
    textChunks,
    toolCalls,
    finishReason: turn.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage: {
      promptTokens: usage.promptTokens ?? Math.max(1, Math.ceil(context.promptChars / 4)),
      completionTokens: usage.completionTokens ?? Math.max(1, chunkCount),
      cachedTokens: usage.cachedTokens,
      cacheCreationTokens: usage.cacheCreationTokens,
      style: usage.style ?? 'openai',
    },
    chunkDelayMs: chunkDelayOf(turn),
    stallAfterChunks: turn.stallAfterChunks,
    streamError: turn.streamError && {
      message: turn.streamError.message ?? 'The server had an error while generating the reply.',
      type: turn.streamError.type ?? 'server_error',
    },
  }
}

function planToolCall(call: ToolCallsTurn['toolCalls'][number], index: number): PlannedToolCall {
  const text = argumentsText(call)
  return {
    index,
    id: call.id,
    name: call.name,
    argumentsText: text,
    fragments: call.argumentChunks ?? splitFragments(text),
    argumentsObject: parseObject(text),
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/** Total streamed chunks (content + tool-call fragments); the time a non-stream reply takes to "generate". */
export function generationTimeMs(plan: ReplyPlan): number {
  const chunks = plan.textChunks.length + plan.toolCalls.reduce((sum, call) => sum + call.fragments.length, 0)
  return Math.max(0, chunks - 1) * plan.chunkDelayMs
}
