import { it } from 'vitest'

/**
 * The two tiers of the suite: `npm test` (fast) and `npm run test:soak` (soak, the `*.soak.test.ts` files).
 * A suite shared by a file of each tier registers each test in one of them only.
 */
export type Tier = 'fast' | 'soak'

// Callable and indexable all the way down, so `notHere(...)`, `notHere.each(...)(...)` and `notHere.for(...)(...)`
// register nothing.
const notHere: unknown = new Proxy(() => {}, { get: () => notHere, apply: () => notHere })

/** `it` where `runsHere` holds; elsewhere a stand-in that registers nothing (the other tier's file has the test). */
export function itWhen<T = typeof it>(runsHere: boolean, base: T = it as T): T {
  return runsHere ? base : (notHere as T)
}
