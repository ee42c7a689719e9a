import type { Logger } from '../../platform'
import type { LocalModelHost } from '../local/localHost'

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>

/** Transport behaviour shared by every client; everything injectable for tests. */
export interface ClientOptions {
  /** Give up when the server sends nothing (no headers, no chunk) for this long. Default 120 s. */
  timeoutMs?: number
  /** Extra attempts after a 429/5xx/cut-off reply that produced no output yet. Default 2. */
  maxRetries?: number
  /** First backoff step; doubled per attempt, with jitter. Default 1 s. */
  backoffBaseMs?: number
  /** A Retry-After longer than this is not waited for: the error is reported instead. Default 30 s. */
  retryAfterCapMs?: number
  sleep?: Sleep
  random?: () => number
  now?: () => number
  fetch?: typeof fetch
  logger?: Logger
  /** Installed models and the embedded runtime, for providers of kind `local`. */
  local?: LocalModelHost
}

export interface ResolvedClientOptions {
  timeoutMs: number
  maxRetries: number
  backoffBaseMs: number
  retryAfterCapMs: number
  sleep: Sleep
  random: () => number
  now: () => number
  fetch: typeof fetch
  logger: Logger | undefined
  local: LocalModelHost | undefined
}

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    function onAbort() {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })

export function resolveClientOptions(options: ClientOptions = {}): ResolvedClientOptions {
  return {
    timeoutMs: options.timeoutMs ?? 120_000,
    maxRetries: options.maxRetries ?? 2,
    backoffBaseMs: options.backoffBaseMs ?? 1000,
    retryAfterCapMs: options.retryAfterCapMs ?? 30_000,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
    fetch: options.fetch ?? globalThis.fetch,
    logger: options.logger,
    local: options.local,
  }
}
