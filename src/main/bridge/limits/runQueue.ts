import { bridgeErrors } from '../errors'

export interface RunQueue {
  /**
   * Waits for a free slot and returns its release function. Throws the 429 error when the queue is
   * full, and the signal's reason when the caller gives up while waiting.
   */
  acquire(signal: AbortSignal): Promise<() => void>
  stats(): { running: number; queued: number }
}

interface Waiter {
  grant: () => void
}

/** A concurrency limit with a bounded FIFO queue; the limits are read at each call, so settings apply live. */
export function createRunQueue(limits: () => { maxConcurrent: number; maxQueued: number }): RunQueue {
  let running = 0
  const waiting: Waiter[] = []

  const releaser = () => {
    let released = false
    return () => {
      if (released) return
      released = true
      running--
      pump()
    }
  }
  const pump = () => {
    while (waiting.length > 0 && running < limits().maxConcurrent) {
      const next = waiting.shift() as Waiter
      running++
      next.grant()
    }
  }

  return {
    acquire(signal) {
      if (signal.aborted) return Promise.reject(signal.reason)
      const { maxConcurrent, maxQueued } = limits()
      if (running < maxConcurrent && waiting.length === 0) {
        running++
        return Promise.resolve(releaser())
      }
      if (waiting.length >= maxQueued) return Promise.reject(bridgeErrors.queueFull(1))
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const index = waiting.indexOf(waiter)
          if (index >= 0) waiting.splice(index, 1)
          reject(signal.reason)
        }
        const waiter: Waiter = {
          grant: () => {
            signal.removeEventListener('abort', onAbort)
            resolve(releaser())
          },
        }
        waiting.push(waiter)
        signal.addEventListener('abort', onAbort, { once: true })
      })
    },
    stats: () => ({ running, queued: waiting.length }),
  }
}
