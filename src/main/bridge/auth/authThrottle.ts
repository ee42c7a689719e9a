/**
 * Counts wrong API keys per client address in a fixed window. Past `maxFailures` the address is told to
 * wait (429 with Retry-After) for the rest of the window, for every further wrong key; a right key is
 * never delayed or refused, so one misconfigured script on 127.0.0.1 cannot lock out the other clients
 * on the same address. Memory is bounded: at most `maxAddresses` are tracked, the stalest dropped first.
 */
export interface AuthThrottleOptions {
  /** Wrong keys an address may send per window before it is throttled (default 10). */
  maxFailures?: number
  /** Length of the window in milliseconds (default 60 s). */
  windowMs?: number
  maxAddresses?: number
  now?: () => number
}

export interface AuthThrottle {
  /** Records a wrong key; returns the seconds to wait when this one went over the limit, else 0. */
  fail(address: string): number
}

interface Window {
  started: number
  failures: number
}

export function createAuthThrottle(options: AuthThrottleOptions = {}): AuthThrottle {
  const maxFailures = options.maxFailures ?? 10
  const windowMs = options.windowMs ?? 60_000
  const maxAddresses = options.maxAddresses ?? 10_000
  const now = options.now ?? Date.now
  // A Map iterates in insertion order: re-inserting on each failure keeps the stalest first.
  const windows = new Map<string, Window>()

  const current = (address: string): Window | undefined => {
    const window = windows.get(address)
    if (window && now() - window.started >= windowMs) {
      windows.delete(address)
      return undefined
    }
    return window
  }
  const wait = (window: Window) => Math.max(1, Math.ceil((window.started + windowMs - now()) / 1000))

  return {
    fail(address) {
      const window = current(address) ?? { started: now(), failures: 0 }
      window.failures++
      windows.delete(address)
      windows.set(address, window)
      while (windows.size > maxAddresses) {
        const stalest = windows.keys().next().value
        if (stalest === undefined) break
        windows.delete(stalest)
      }
      return window.failures > maxFailures ? wait(window) : 0
    },
  }
}
