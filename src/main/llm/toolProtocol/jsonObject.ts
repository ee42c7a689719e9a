import { jsonrepair } from 'jsonrepair'

/*
 * Adapter over the tools pipeline's JSON repair. src/main/tools does not export its argument
 * extraction from its index yet; until it does, this is the one place the llm layer parses
 * model-written JSON (first object in the text, fences and prose tolerated, then jsonrepair).
 */

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function parseObject(text: string): Record<string, unknown> | undefined {
  for (const attempt of [() => JSON.parse(text), () => JSON.parse(jsonrepair(text))]) {
    try {
      const value: unknown = attempt()
      if (isPlainObject(value)) return value
    } catch {}
  }
  return undefined
}

/** The first JSON object in model output: plain, fenced, or inside prose; repaired when broken. */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const fenced = /```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)```/.exec(text)?.[1]
  for (const source of fenced ? [fenced, text] : [text]) {
    const start = source.indexOf('{')
    if (start < 0) continue
    const end = source.lastIndexOf('}')
    const found =
      (end > start ? parseObject(source.slice(start, end + 1)) : undefined) ??
      parseObject(source.slice(start))
    if (found) return found
  }
  return undefined
}

/** Tool-call arguments as an object for protocols that need one (Ollama, Anthropic); `{}` when unreadable. */
export function argumentsObject(text: string): Record<string, unknown> {
  if (text.trim() === '') return {}
  return extractJsonObject(text) ?? {}
}
