import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RecordedRequest } from './types'

const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-expose-headers': '*',
}

/** One request/response pair: writes that become no-ops once the client is gone, and abortable waits. */
export class Exchange {
  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly record: RecordedRequest,
    readonly bodyBytes: Buffer,
    readonly signal: AbortSignal,
    private readonly notify: () => void,
  ) {}

  get closed(): boolean {
    return this.signal.aborted || this.res.writableEnded
  }

  head(status: number, headers: Record<string, string>): void {
    if (this.closed || this.res.headersSent) return
    this.res.writeHead(status, {
      ...corsHeaders,
      'x-request-id': `req_scripted_${this.record.index}`,
      ...headers,
    })
    this.record.status = status
    this.notify()
  }

  write(chunk: string | Uint8Array): void {
    if (!this.closed) this.res.write(chunk)
  }

  end(chunk?: string | Uint8Array): void {
    if (this.closed) return
    if (chunk === undefined) this.res.end()
    else this.res.end(chunk)
  }

  send(
    status: number,
    contentType: string,
    payload: string | Uint8Array,
    headers: Record<string, string> = {},
  ): void {
    this.head(status, { 'content-type': contentType, ...headers })
    this.end(payload)
  }

  json(status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.send(status, 'application/json', JSON.stringify(body), headers)
  }

  /** Resolves after `ms`, or early when the client disconnects (check `closed` afterwards). */
  sleep(ms: number | undefined): Promise<void> {
    if (!ms || ms <= 0 || this.signal.aborted) return Promise.resolve()
    const signal = this.signal
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms)
      function done(): void {
        clearTimeout(timer)
        signal.removeEventListener('abort', done)
        resolve()
      }
      signal.addEventListener('abort', done, { once: true })
    })
  }

  /** Holds the connection open until the client disconnects (or the server closes). */
  hangUntilAbort(): Promise<void> {
    if (this.signal.aborted) return Promise.resolve()
    return new Promise((resolve) => this.signal.addEventListener('abort', () => resolve(), { once: true }))
  }
}
