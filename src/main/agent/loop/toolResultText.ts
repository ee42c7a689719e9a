import type { ToolResult } from '../../tools'

export const DEFAULT_MAX_TOOL_RESULT_CHARS = 16_000

function cap(text: string, max: number): string {
  if (text.length <= max) return text
  return `${text.slice(0, max)}\n[… cut: the result has ${text.length} characters; ask for less, e.g. a smaller range or page]`
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
