/** Runs tasks one at a time in call order, so concurrent read-modify-write updates lose nothing. */
export interface SerialQueue {
  run<T>(task: () => Promise<T> | T): Promise<T>
}

export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve()
  return {
    run(task) {
      const result = tail.then(task)
      tail = result.catch(() => undefined)
      return result
    },
  }
}
