import type { Readable, Writable } from 'node:stream'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'

/** The longest line read; a longer one is answered with an error and skipped, never kept whole. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024

/** Requests a client may send before the server has answered `initialize`. */
const BEFORE_INITIALIZE = new Set(['initialize', 'ping'])

function errorReply(id: RequestId | null, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`
}

function hasRequestId(value: unknown): value is { id: RequestId; method: string } {
  const v = value as { id?: unknown; method?: unknown }
  return (
    (typeof v.id === 'string' || (typeof v.id === 'number' && Number.isInteger(v.id))) &&
    typeof v.method === 'string'
  )
}

/**
 * The stdio transport of `bureau mcp`, answering what the SDK's own transport drops: a line over
 * `MAX_LINE_BYTES` (the SDK's closes the server), JSON that is not JSON-RPC (ids that are objects,
 * batches), and requests before `initialize`, each with a JSON-RPC error; the server goes on.
 */
export class LineServerTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: Transport['onmessage']

  private chunks: Buffer[] = []
  private length = 0
  /** Inside a line that is too long: its bytes are dropped up to the next newline. */
  private skipping = false
  private initializeId: RequestId | undefined
  private initialized = false
  private closed = false

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData)
    this.input.on('error', this.onInputError)
    this.input.once('end', this.onEnd)
  }

  private readonly onInputError = (error: Error) => this.onerror?.(error)
  private readonly onEnd = () => void this.close()

  private readonly onData = (chunk: Buffer) => {
    let start = 0
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, newline))
      this.endLine()
      start = newline + 1
    }
    if (start < chunk.length) this.take(chunk.subarray(start))
  }

  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return
    if (this.length + part.length > MAX_LINE_BYTES) {
      this.skipping = true
      this.chunks = []
      this.length = 0
      return
    }
    this.chunks.push(part)
    this.length += part.length
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false
      this.write(
        errorReply(
          null,
          ErrorCode.InvalidRequest,
          `Request too large: a message may be at most ${MAX_LINE_BYTES / 1024 / 1024} MB; it was not read.`,
        ),
      )
      return
    }
    const line = Buffer.concat(this.chunks, this.length).toString('utf8').replace(/\r$/, '')
    this.chunks = []
    this.length = 0
    if (line.trim() === '') return
    this.handle(line)
  }

  private handle(line: string): void {
    let json: unknown
    try {
      json = JSON.parse(line)
    } catch (error) {
      this.write(errorReply(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`))
      return
    }
    if (Array.isArray(json)) {
      this.write(errorReply(null, ErrorCode.InvalidRequest, 'Invalid Request: batches are not supported.'))
      return
    }
    const parsed = JSONRPCMessageSchema.safeParse(json)
    if (!parsed.success) {
      const id = hasRequestId(json) ? json.id : null
      const detail = parsed.error.issues[0]
      this.write(
        errorReply(
          id,
          ErrorCode.InvalidRequest,
          `Invalid Request${detail ? `: ${detail.path.join('.') || 'message'}: ${detail.message}` : ''}`,
        ),
      )
      return
    }
    const message = parsed.data
    if ('method' in message && 'id' in message && !this.initialized) {
      if (!BEFORE_INITIALIZE.has(message.method)) {
        this.write(
          errorReply(
            message.id,
            ErrorCode.InvalidRequest,
            `The session is not initialized: send "initialize" before "${message.method.slice(0, 60)}".`,
          ),
        )
        return
      }
      if (message.method === 'initialize') this.initializeId = message.id
    }
    this.onmessage?.(message)
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed || this.output.write(text)) resolve()
      else this.output.once('drain', resolve)
    })
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if ('result' in message && this.initializeId !== undefined && message.id === this.initializeId)
      this.initialized = true
    await this.write(`${JSON.stringify(message)}\n`)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.input.off('data', this.onData)
    this.input.off('error', this.onInputError)
    this.input.off('end', this.onEnd)
    this.input.pause()
    this.chunks = []
    this.onclose?.()
  }
}
