import { describe, expect, it } from 'vitest'
import { shutdownWithin } from '../../../src/main/cli/serve/shutdown'

// After SIGTERM the host ignored the signal while a run was stuck. The shutdown now has a
// deadline (and a second signal cuts it short); the CLI entry exits when it returns.
describe('serve shutdown', () => {
  it('returns clean when the steps finish', async () => {
    const order: string[] = []
    const outcome = await shutdownWithin(async () => {
      order.push('closed')
    })
    expect(outcome).toEqual({ clean: true })
    expect(order).toEqual(['closed'])
  })

  it('gives up on steps that never finish (a stuck run) and says so', async () => {
    let reported = false
    const outcome = await shutdownWithin(() => new Promise<void>(() => undefined), {
      deadlineMs: 50,
      onTimeout: () => {
        reported = true
      },
    })
    expect(outcome).toEqual({ clean: false })
    expect(reported).toBe(true)
  })

  it('a second signal ends the wait at once', async () => {
    const listeners = process.listenerCount('SIGUSR2')
    const pending = shutdownWithin(() => new Promise<void>(() => undefined), {
      deadlineMs: 600_000,
      signals: ['SIGUSR2'],
    })
    process.emit('SIGUSR2', 'SIGUSR2')
    expect(await pending).toEqual({ clean: false })
    expect(process.listenerCount('SIGUSR2')).toBe(listeners)
  })

  it('a failing step is not clean but still returns', async () => {
    expect(await shutdownWithin(() => Promise.reject(new Error('dispose failed')))).toEqual({ clean: false })
  })
})
