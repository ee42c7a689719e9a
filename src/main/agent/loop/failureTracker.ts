/** Stops the loop when one method fails the same way this many times in a row. */
export const REPEATED_FAILURE_LIMIT = 3

export interface RepeatedFailure {
  method: string
  error: string
  count: number
}

export function createFailureTracker(limit = REPEATED_FAILURE_LIMIT) {
  let last: string | undefined
  let count = 0
  return {
    success(): void {
      last = undefined
      count = 0
    },
    /** Records a failure; returns the repeat when it reached the limit. */
    failure(method: string, error: string): RepeatedFailure | undefined {
      const signature = `${method}\u0000${error}`
      count = signature === last ? count + 1 : 1
      last = signature
      return count >= limit ? { method, error, count } : undefined
    },
  }
}

export type FailureTracker = ReturnType<typeof createFailureTracker>
