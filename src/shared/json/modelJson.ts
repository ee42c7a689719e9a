// How model-written JSON is read, in one place for every layer (the llm tool protocol, the tool
// pipeline, the agent's own calls).
import { jsonrepair } from 'jsonrepair'

const FENCE = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/g
const MAX_CANDIDATES = 8

/** Parses JSON, repairing what models commonly break (quotes, commas, unquoted keys, truncation...). */
export function parseLooseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return JSON.parse(jsonrepair(text))
  }
}

/** Index just past the `{...}` that starts at `start`, or -1 when it never closes (truncated output). */
function balancedEnd(text: string, start: number): number {
  let depth = 0
  let quote: string | undefined
  let previous = ''
  for (let i = start; i < text.length; i++) {
    const char = text[i] as string
    if (quote) {
      if (char === '\\') i++
      else if (char === quote) quote = undefined
      continue
    }
    if (char === '"' || (char === "'" && '{[,:'.includes(previous))) quote = char
    else if (char === '{' || char === '[') depth++
    else if (char === '}' || char === ']') {
      depth--
      if (depth === 0) return i + 1
    }
    if (char.trim() !== '') previous = char
  }
  return -1
}

/** The candidate JSON object texts in `text`: fenced blocks first, then each `{` in order. */
function candidates(text: string): string[] {
  const sources = [...text.matchAll(FENCE)]
    .map((match) => match[1] ?? '')
    .filter((body) => body.includes('{'))
  sources.push(text)
  const found: string[] = []
  for (const source of sources) {
    let from = source.indexOf('{')
    while (from >= 0 && found.length < MAX_CANDIDATES) {
      const end = balancedEnd(source, from)
      found.push(end < 0 ? source.slice(from).replace(/`{3}\s*$/, '') : source.slice(from, end))
      if (end < 0) break
      from = source.indexOf('{', end)
    }
  }
  return found
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Finds the first JSON object in model output: plain JSON, a fenced block, or an object inside
 * prose. Strict parses win over repaired ones, so `{braces}` in prose do not shadow real JSON.
 */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const texts = candidates(text)
  for (const candidate of texts) {
    try {
      const value = JSON.parse(candidate)
      if (isPlainObject(value)) return value
    } catch {}
  }
  for (const candidate of texts) {
    try {
      const value = JSON.parse(jsonrepair(candidate))
      if (isPlainObject(value)) return value
    } catch {}
  }
  return undefined
}

/**
 * Tool-call arguments as an object, whatever shape they arrived in: an object as is, JSON text (fenced,
 * in prose, broken) extracted and repaired, anything unreadable as `{}`.
 */
export function jsonObjectOf(raw: unknown): Record<string, unknown> {
  if (isPlainObject(raw)) return raw
  if (typeof raw !== 'string' || raw.trim() === '') return {}
  return extractJsonObject(raw) ?? {}
}
