/** The part of a writable stream `drainedOrClosed` listens to (Node's, without importing Node here). */
export interface DrainableStream {
  once(event: 'drain' | 'close', listener: () => void): unknown
  off(event: 'drain' | 'close', listener: () => void): unknown
}

/**
 * Waits until the stream takes more (or is closed by an error). Both listeners go once either fires: a
 * writer may wait thousands of times, and a `close` listener left per wait piles up (Node's leak warning
 * after ten).
 */
export function drainedOrClosed(out: DrainableStream): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done)
      out.off('close', done)
      resolve()
    }
    out.once('drain', done)
    out.once('close', done)
  })
}
