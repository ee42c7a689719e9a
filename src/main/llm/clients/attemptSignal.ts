/**
 * The abort signal of one attempt: aborted by the caller's signal, by the inactivity watchdog, or
 * when the attempt ends (so a consumer that stops reading also stops the HTTP request).
 */
export class AttemptSignal {
  private readonly controller = new AbortController()
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason)
  timedOut = false

  constructor(
    private readonly caller: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    if (caller?.aborted) this.controller.abort(caller.reason)
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true })
    this.touch()
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  get cancelled(): boolean {
    return this.caller?.aborted === true
  }

  /** Something arrived: restart the inactivity timer. */
  touch(): void {
    if (this.timer) clearTimeout(this.timer)
    if (this.controller.signal.aborted) return
    this.timer = setTimeout(() => {
      this.timedOut = true
      this.controller.abort(new Error('timed out'))
    }, this.timeoutMs)
  }

  /** Ends the attempt: stops the timer and aborts whatever is still in flight. */
  close(): void {
    if (this.timer) clearTimeout(this.timer)
    this.caller?.removeEventListener('abort', this.onCallerAbort)
    if (!this.controller.signal.aborted) this.controller.abort(new Error('attempt finished'))
  }
}
