/** A push-to-pull bridge: callbacks push values, one consumer iterates them until `end` or `fail`. */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly items: T[] = []
  private waiting: (() => void) | undefined
  private ended = false
  private error: { value: unknown } | undefined

  push(item: T): void {
    this.items.push(item)
    this.wake()
  }

  end(): void {
    this.ended = true
    this.wake()
  }

  fail(error: unknown): void {
    this.error = { value: error }
    this.wake()
  }

  private wake(): void {
    const waiting = this.waiting
    this.waiting = undefined
    waiting?.()
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      const item = this.items.shift()
      if (item !== undefined) {
        yield item
        continue
      }
      if (this.error) throw this.error.value
      if (this.ended) return
      await new Promise<void>((resolve) => {
        this.waiting = resolve
      })
    }
  }
}
