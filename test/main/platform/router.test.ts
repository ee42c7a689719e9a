import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createIpcRouter, type HandlerContext } from '../../../src/main/platform'
import { AppError } from '../../../src/shared/errors'
import { route } from '../../../src/shared/ipc'

const routes = {
  'math.add': route({
    summary: 'adds',
    input: z.object({ a: z.number(), b: z.number().default(1) }),
    output: z.number(),
  }),
  'app.ping': route({ summary: 'ping', input: z.void(), output: z.literal('pong') }),
  'app.fail': route({ summary: 'fails', input: z.void(), output: z.string() }),
  'app.refuse': route({ summary: 'refuses', input: z.void(), output: z.string() }),
  'app.lies': route({ summary: 'bad output', input: z.void(), output: z.string() }),
}

const ctx: HandlerContext = { senderId: 'test', signal: new AbortController().signal }

function makeRouter(errors: string[] = []) {
  return createIpcRouter(
    routes,
    {
      'math.add': ({ a, b }) => a + b,
      'app.ping': () => 'pong' as const,
      'app.fail': () => {
        throw new Error('disk on fire\n    at secret (/home/user/src/file.ts:1:1)')
      },
      'app.refuse': () => {
        throw new AppError('NOT_FOUND', 'No such conversation.')
      },
      'app.lies': () => 42 as unknown as string,
    },
    { onHandlerError: (name) => errors.push(name) },
  )
}

describe('IpcRouter', () => {
  it('validates input, applies defaults and dispatches', async () => {
    const router = makeRouter()
    expect(await router.dispatch('math.add', { a: 2, b: 3 }, ctx)).toEqual({ ok: true, value: 5 })
    expect(await router.dispatch('math.add', { a: 2 }, ctx)).toEqual({ ok: true, value: 3 })
  })

  it('answers invalid input with VALIDATION_FAILED and the zod issues', async () => {
    const result = await makeRouter().dispatch('math.add', { a: 'two' }, ctx)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('VALIDATION_FAILED')
    expect(result.error.issues?.[0]?.path).toEqual(['a'])
    expect(result.error.issues?.[0]?.message).toMatch(/number/i)
  })

  it('answers an unknown route, including prototype names, with UNKNOWN_ROUTE', async () => {
    const router = makeRouter()
    for (const name of ['nope', 'toString', '__proto__', 'constructor']) {
      const result = await router.dispatch(name, {}, ctx)
      expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_ROUTE' } })
    }
  })

  it('accepts nothing, {} or null for a route without input', async () => {
    const router = makeRouter()
    for (const input of [undefined, {}, null]) {
      expect(await router.dispatch('app.ping', input, ctx)).toEqual({ ok: true, value: 'pong' })
    }
    expect(await router.dispatch('app.ping', { extra: 1 }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED' },
    })
  })

  it('turns a handler crash into HANDLER_FAILED with one line and no stack', async () => {
    const errors: string[] = []
    const result = await makeRouter(errors).dispatch('app.fail', undefined, ctx)
    expect(result).toEqual({
      ok: false,
      error: { code: 'HANDLER_FAILED', message: 'app.fail failed: disk on fire' },
    })
    expect(errors).toEqual(['app.fail'])
  })

  it('passes an AppError through with its code', async () => {
    const result = await makeRouter().dispatch('app.refuse', undefined, ctx)
    expect(result).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: 'No such conversation.' } })
  })

  it('refuses to send an output that breaks the contract', async () => {
    const result = await makeRouter().dispatch('app.lies', undefined, ctx)
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } })
  })
})
