import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createIpcRouter } from '../../../src/main/platform'
import { route } from '../../../src/shared/ipc'

// These checks run in `npm run typecheck`: each @ts-expect-error must see a compile error,
// otherwise tsc fails because the directive is unused.
const routes = {
  'a.one': route({ summary: 'one', input: z.object({ n: z.number() }), output: z.string() }),
  'a.two': route({ summary: 'two', input: z.void(), output: z.number() }),
}

describe('handler map typing', () => {
  it('accepts exactly the contract', () => {
    const router = createIpcRouter(routes, { 'a.one': ({ n }) => String(n), 'a.two': () => 2 })
    expect(router.has('a.one')).toBe(true)
    expect(router.has('a.three')).toBe(false)
  })

  it('rejects a missing, an extra or a mistyped handler at compile time', () => {
    // @ts-expect-error a.two is missing
    createIpcRouter(routes, { 'a.one': ({ n }) => String(n) })
    // @ts-expect-error a.three is not in the contract
    createIpcRouter(routes, { 'a.one': ({ n }) => String(n), 'a.two': () => 2, 'a.three': () => 3 })
    // @ts-expect-error a.one must return a string
    createIpcRouter(routes, { 'a.one': ({ n }) => n, 'a.two': () => 2 })
    expect(true).toBe(true)
  })
})
