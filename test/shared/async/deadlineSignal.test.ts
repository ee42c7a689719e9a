import { describe, expect, it } from 'vitest'
import { deadlineSignal } from '../../../src/shared/async/deadlineSignal'

const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason)))

describe('deadlineSignal', () => {
  it('aborts with the given reason when the time runs out, without an outer signal', async () => {
    const deadline = deadlineSignal(undefined, 20, () => new Error('limit reached'))
    await expect(aborted(deadline.signal)).resolves.toMatchObject({ message: 'limit reached' })
  })

  it('passes on the outer signal’s abort and reason', async () => {
    const outer = new AbortController()
    const deadline = deadlineSignal(outer.signal, 60_000, () => new Error('limit'))
    outer.abort(new Error('stopped by the user'))
    expect(deadline.signal.aborted).toBe(true)
    expect(deadline.signal.reason).toMatchObject({ message: 'stopped by the user' })
    deadline.dispose()
  })

  it('is aborted at once when the outer signal already is', () => {
    const deadline = deadlineSignal(AbortSignal.abort('gone'), 60_000, () => new Error('limit'))
    expect(deadline.signal.reason).toBe('gone')
  })

  it('never aborts once disposed', async () => {
    const outer = new AbortController()
    const deadline = deadlineSignal(outer.signal, 10, () => new Error('limit'))
    deadline.dispose()
    outer.abort()
    await new Promise((resolve) => setTimeout(resolve, 40))
    expect(deadline.signal.aborted).toBe(false)
  })
})
