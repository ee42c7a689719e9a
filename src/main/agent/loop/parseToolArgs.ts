import { jsonrepair } from 'jsonrepair'

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Arguments of an agent tool call (done, sub-agents) as an object; broken JSON is repaired, garbage gives `{}`. */
export function parseToolArgs(raw: unknown): Record<string, unknown> {
  if (isObject(raw)) return raw
  if (typeof raw !== 'string' || raw.trim() === '') return {}
  const text = raw.trim()
  const start = text.indexOf('{')
  const candidate = start >= 0 ? text.slice(start, text.lastIndexOf('}') + 1 || undefined) : text
  for (const parse of [() => JSON.parse(candidate), () => JSON.parse(jsonrepair(candidate))]) {
    try {
      const value: unknown = parse()
      if (isObject(value)) return value
    } catch {}
  }
  return {}
}
