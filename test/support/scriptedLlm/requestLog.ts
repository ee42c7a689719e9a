import type { RecordedRequest, WaitOptions } from './types'

/** The recorded requests plus waiters that are rechecked whenever a request changes. */
export class RequestLog {
  readonly requests: RecordedRequest[] = []
  private readonly waiters = new Set<() => void>()

  add(record: RecordedRequest): void {
    record.index = this.requests.length
    this.requests.push(record)
    this.changed()
  }

  changed(): void {
    for (const check of [...this.waiters]) check()
  }

  clear(): void {
    this.requests.length = 0
    this.changed()
  }

  waitUntil(predicate: () => boolean, what: string, options: WaitOptions = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? 5000
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!predicate()) return
        settle()
        resolve()
      }
      const timer = setTimeout(() => {
        settle()
        reject(
          new Error(`scripted LLM: timed out after ${timeoutMs} ms waiting for ${what}. ${this.summary()}`),
        )
      }, timeoutMs)
      const settle = (): void => {
        clearTimeout(timer)
        this.waiters.delete(check)
      }
      this.waiters.add(check)
      check()
    })
  }

  async waitForRequests(count: number, options?: WaitOptions): Promise<RecordedRequest[]> {
    await this.waitUntil(() => this.requests.length >= count, `${count} request(s)`, options)
    return [...this.requests]
  }

  private summary(): string {
    if (this.requests.length === 0) return 'No request arrived.'
    const lines = this.requests.map(
      (r) => `#${r.index} ${r.method} ${r.path} -> ${r.status ?? 'pending'}${r.aborted ? ' (aborted)' : ''}`,
    )
    return `Requests so far: ${lines.join('; ')}`
  }
}
