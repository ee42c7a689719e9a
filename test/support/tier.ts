import { describe, it } from 'vitest'

/**
 * The two tiers of the suite: `npm test` (fast) and `npm run test:soak` (soak). The soak tier runs the
 * `*.soak.test.ts` files and every file that asks for its tier (`currentTier()`): such a file registers its short
 * tests in the fast tier and its long ones in the soak tier.
 */
export type Tier = 'fast' | 'soak'

/** The tier this run belongs to; the soak configuration sets `BUREAU_TEST_TIER=soak`. */
export function currentTier(): Tier {
  return process.env.BUREAU_TEST_TIER === 'soak' ? 'soak' : 'fast'
}

// Callable and indexable all the way down, so `notHere(...)`, `notHere.each(...)(...)` and `notHere.for(...)(...)`
// register nothing.
const notHere: unknown = new Proxy(() => {}, { get: () => notHere, apply: () => notHere })

/** `it` where `runsHere` holds; elsewhere a stand-in that registers nothing (the other tier has the test). */
export function itWhen<T = typeof it>(runsHere: boolean, base: T = it as T): T {
  return runsHere ? base : (notHere as T)
}

/** `describe` where `runsHere` holds: a block whose tests all belong to one tier is left out of the other. */
export function describeWhen<T = typeof describe>(runsHere: boolean, base: T = describe as T): T {
  return runsHere ? base : (notHere as T)
}

/** This run's tier, and `it`/`describe` for the tests and blocks of one tier only. */
export const tier: Tier = currentTier()
export const itFast = itWhen(tier === 'fast')
export const itSoak = itWhen(tier === 'soak')
export const describeFast = describeWhen(tier === 'fast')
export const describeSoak = describeWhen(tier === 'soak')
