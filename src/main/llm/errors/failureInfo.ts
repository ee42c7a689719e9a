/** What went wrong with one attempt, read from whatever an SDK or fetch threw. */
export interface FailureInfo {
  kind: 'cancelled' | 'timeout' | 'http' | 'connection' | 'malformed' | 'stream' | 'incomplete' | 'unknown'
  status?: number
  headers?: unknown
  /** The provider's own message (unsafe: may need redaction). */
  message?: string
  /** A network error code (ECONNREFUSED...) or the provider's error code/type. */
  code?: string
}

// The three classes below stay inside llm: a driver throws them, `failureInfo` reads them (by class or
// name, like an SDK's own errors) and `classifyFailure` turns them into the AppError that leaves the service.

/** Thrown by a driver when a stream ends without its final event (cut off). */
export class IncompleteReplyError extends Error {
  constructor() {
    super('the reply ended before it was complete')
    this.name = 'IncompleteReplyError'
  }
}

/** An HTTP error status with the response headers (for clients whose own errors lack them). */
export class ProviderHttpError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers | undefined,
    message: string,
  ) {
    super(message)
    this.name = 'ProviderHttpError'
  }
}

/** Thrown by a driver for a reply it cannot parse. */
export class MalformedReplyError extends Error {
  constructor(detail: string) {
    super(detail)
    this.name = 'MalformedReplyError'
  }
}

interface ErrorLike {
  name?: unknown
  message?: unknown
  status?: unknown
  status_code?: unknown
  headers?: unknown
  code?: unknown
  type?: unknown
  error?: unknown
  cause?: unknown
}

function asErrorLike(value: unknown): ErrorLike | undefined {
  return typeof value === 'object' && value !== null ? (value as ErrorLike) : undefined
}

function networkCode(error: unknown): string | undefined {
  let current = asErrorLike(error)
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current.code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(current.code))
      return current.code
    current = asErrorLike(current.cause)
  }
  return undefined
}

/** The message inside an SDK's error body: OpenAI `{error:{message}}`, Anthropic `{error:{error:{message}}}`, Ollama string. */
function bodyMessage(error: ErrorLike): { message?: string; code?: string } {
  const body = error.error
  if (typeof body === 'string') return { message: body }
  const outer = asErrorLike(body)
  if (!outer) return {}
  const inner = asErrorLike(outer.error) ?? outer
  const message = typeof inner.message === 'string' ? inner.message : undefined
  const code =
    typeof inner.code === 'string' ? inner.code : typeof inner.type === 'string' ? inner.type : undefined
  return { message, code }
}

function isMalformed(error: ErrorLike): boolean {
  if (error.name === 'SyntaxError' || error.name === 'MalformedReplyError') return true
  const message = typeof error.message === 'string' ? error.message : ''
  return /Unexpected (token|end of JSON)|Unterminated string|not valid JSON|could not parse|JSON at position/i.test(
    message,
  )
}

export function failureInfo(error: unknown, state: { cancelled: boolean; timedOut: boolean }): FailureInfo {
  if (state.cancelled) return { kind: 'cancelled' }
  if (state.timedOut) return { kind: 'timeout' }
  if (error instanceof IncompleteReplyError) return { kind: 'incomplete' }
  const like = asErrorLike(error)
  if (!like) return { kind: 'unknown', message: String(error) }
  const status =
    typeof like.status === 'number'
      ? like.status
      : typeof like.status_code === 'number'
        ? like.status_code
        : undefined
  const fromBody = bodyMessage(like)
  const ownMessage = typeof like.message === 'string' ? like.message : undefined
  if (status !== undefined) {
    return {
      kind: 'http',
      status,
      headers: like.headers,
      message: fromBody.message ?? ownMessage,
      code: fromBody.code,
    }
  }
  const code = networkCode(error)
  const className = (error as { constructor?: { name?: string } }).constructor?.name
  if (
    code ||
    like.name === 'APIConnectionError' ||
    className === 'APIConnectionError' ||
    (like.name === 'TypeError' && ownMessage === 'fetch failed')
  )
    return { kind: 'connection', code, message: ownMessage }
  if (isMalformed(like)) return { kind: 'malformed', message: ownMessage }
  if (like.name === 'APIError' || like.name === 'Error')
    return { kind: 'stream', message: fromBody.message ?? ownMessage }
  return { kind: 'unknown', message: ownMessage }
}
