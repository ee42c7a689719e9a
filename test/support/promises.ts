/** A promise with its resolve/reject exposed, so a test settles it when and how it wants. */
export function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** Lets pending promise callbacks and timers due now run. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 0))
