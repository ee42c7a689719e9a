import { estimateTextTokens } from '../../llm'
import type { ToolResult } from '../../tools'

export const DEFAULT_MAX_TOOL_RESULT_CHARS = 16_000
/** 16,000 characters of CJK text are ~16,000 tokens: the cut also holds a result to this many. */
export const MAX_TOOL_RESULT_TOKENS = 8_000

function cap(text: string, max: number): string {
  let keep = Math.min(text.length, max)
  const tokens = estimateTextTokens(text.slice(0, keep))
  if (tokens > MAX_TOOL_RESULT_TOKENS) keep = Math.floor((keep * MAX_TOOL_RESULT_TOKENS) / tokens)
  if (keep >= text.length) return text
  return `${text.slice(0, keep)}\n[… cut: the result has ${text.length} characters; ask for less, e.g. a smaller range or page]`
}

/** The text the model reads for a tool result: the value (help text as is, else JSON) or the error. */
export function toolResultText(result: ToolResult, max = DEFAULT_MAX_TOOL_RESULT_CHARS): string {
  if (!result.ok) return `Error: ${result.error}`
  const value = result.value
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null')
  return cap(text, max)
}

export function valueText(value: unknown, max = DEFAULT_MAX_TOOL_RESULT_CHARS): string {
  return cap(typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null'), max)
}
