import type { UrlGuard } from '../../tools'

/** How long a verdict on an origin is reused (a page asks for the same hosts many times). */
const VERDICT_TTL_MS = 30_000
const MAX_CACHED = 500

/** The guard's answer for the URLs a browser asks for; an allowed origin is remembered for a while. */
export interface RequestVerdicts {
  /**
   * Null when the URL may be fetched, else the refusal (names the rule, e.g. loopback). `fresh` skips
   * the remembered verdicts (a host's DNS answer may have changed since).
   */
  refusal(url: string, options?: { fresh?: boolean }): Promise<string | null>
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The URL guard's rules depend only on scheme, host and port, so one check serves a whole origin. */
function originKey(url: string): string | null {
  try {
    const parsed = new URL(url)
    return /^(https?|wss?):$/.test(parsed.protocol) ? `${parsed.protocol}//${parsed.host}` : null
  } catch {
    return null
  }
}

export function createRequestVerdicts(guard: UrlGuard, now: () => number = Date.now): RequestVerdicts {
  // Only allowed origins are cached: a refusal is checked again so its message names the URL asked for.
  const allowed = new Map<string, number>()
  // A page asks for many URLs of a new origin at once: they wait for one check.
  const running = new Map<string, Promise<string | null>>()
  const check = (url: string): Promise<string | null> =>
    guard.check(url).then(
      () => null,
      (error: unknown) => messageOf(error),
    )
  return {
    async refusal(url, options = {}) {
      const key = originKey(url)
      if (key && !options.fresh) {
        const at = allowed.get(key)
        if (at !== undefined && now() - at < VERDICT_TTL_MS) return null
        const pending = running.get(key)
        if (pending && (await pending) === null) return null
      }
      const verdict = check(url)
      if (key) running.set(key, verdict)
      const refusal = await verdict
      if (key && running.get(key) === verdict) running.delete(key)
      if (refusal === null && key) {
        if (allowed.size >= MAX_CACHED) allowed.clear()
        allowed.set(key, now())
      }
      return refusal
    },
  }
}
