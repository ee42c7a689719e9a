import { describe, expect, it } from 'vitest'
import { createSerialQueue } from '../../../src/main/settings/serialQueue'

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('serial queue', () => {
  it('runs read-modify-write tasks one at a time, so none is lost', async () => {
    const queue = createSerialQueue()
    let store: string[] = []
    const append = (item: string, delay: number) =>
      queue.run(async () => {
        const snapshot = store
        await tick(delay) // an async cipher or backend between read and write
        store = [...snapshot, item]
      })
    await Promise.all(Array.from({ length: 20 }, (_, i) => append(`k${i}`, (i * 7) % 5)))
    expect(store).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}`))
  })

  it('keeps going after a failed task and hands each caller its own result', async () => {
    const queue = createSerialQueue()
    const failed = queue.run(() => {
      throw new Error('boom')
    })
    const next = queue.run(async () => 42)
    await expect(failed).rejects.toThrow('boom')
    await expect(next).resolves.toBe(42)
  })
})
