import { describe, expect, it } from 'vitest'
import { BridgeError } from '../../../src/main/bridge/errors'
import { createRunQueue } from '../../../src/main/bridge/limits/runQueue'

const never = () => new AbortController().signal

describe('run queue', () => {
  it('runs up to maxConcurrent, queues FIFO up to maxQueued, refuses beyond with a 429 BridgeError', async () => {
    const queue = createRunQueue(() => ({ maxConcurrent: 2, maxQueued: 2 }))
    const a = await queue.acquire(never())
    const b = await queue.acquire(never())
    const order: string[] = []
    const c = queue.acquire(never()).then((release) => {
      order.push('c')
      return release
    })
    const d = queue.acquire(never()).then((release) => {
      order.push('d')
      return release
    })
    expect(queue.stats()).toEqual({ running: 2, queued: 2 })
    const refused = await queue.acquire(never()).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(BridgeError)
    expect(refused).toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
      headers: { 'retry-after': '1' },
    })

    a()
    a() // releasing twice frees one slot only
    const releaseC = await c
    expect(order).toEqual(['c'])
    expect(queue.stats()).toEqual({ running: 2, queued: 1 })
    b()
    const releaseD = await d
    expect(order).toEqual(['c', 'd'])
    releaseC()
    releaseD()
    expect(queue.stats()).toEqual({ running: 0, queued: 0 })
  })

  it('a waiter whose signal aborts leaves the queue and rejects with the reason', async () => {
    const queue = createRunQueue(() => ({ maxConcurrent: 1, maxQueued: 5 }))
    const release = await queue.acquire(never())
    const controller = new AbortController()
    const waiting = queue.acquire(controller.signal)
    expect(queue.stats().queued).toBe(1)
    controller.abort(new Error('client left'))
    await expect(waiting).rejects.toThrow('client left')
    expect(queue.stats()).toEqual({ running: 1, queued: 0 })
    release()
    expect(queue.stats()).toEqual({ running: 0, queued: 0 })
  })

  it('reads the limits on every call: raising maxConcurrent lets waiters in on the next release', async () => {
    let limits = { maxConcurrent: 1, maxQueued: 0 }
    const queue = createRunQueue(() => limits)
    const first = await queue.acquire(never())
    await expect(queue.acquire(never())).rejects.toBeInstanceOf(BridgeError)
    limits = { maxConcurrent: 3, maxQueued: 0 }
    const second = await queue.acquire(never())
    expect(queue.stats().running).toBe(2)
    first()
    second()
  })
})
