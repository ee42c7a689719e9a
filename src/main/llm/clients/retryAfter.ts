/** Reads a header from a Headers object or a plain record (SDK errors carry either). */
export function headerValue(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined
  const record = headers as Record<string, unknown>
  const found = Object.keys(record).find((key) => key.toLowerCase() === name)
  const value = found === undefined ? undefined : record[found]
  return typeof value === 'string' ? value : undefined
}

/**
 * How long the server asked us to wait, in ms: `retry-after-ms`, then `retry-after` as seconds or
 * an HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: unknown, now: () => number = Date.now): number | undefined {
  const ms = Number(headerValue(headers, 'retry-after-ms'))
  if (headerValue(headers, 'retry-after-ms') !== undefined && Number.isFinite(ms) && ms >= 0) return ms
  const raw = headerValue(headers, 'retry-after')?.trim()
  if (!raw) return undefined
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000)
  const date = Date.parse(raw)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now())
}

/** Exponential backoff with full jitter: base * 2^attempt, randomised to [50 %, 100 %]. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt)
  return Math.round(ceiling / 2 + (ceiling / 2) * random())
}
