import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

export type OpenAiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'server_error'

/** The body every bridge error has, as OpenAI sends it. */
export interface OpenAiErrorBody {
  error: { message: string; type: OpenAiErrorType; param: string | null; code: string | null }
}

/**
 * An error the bridge answers with: HTTP status plus OpenAI's `{error: {message, type, param, code}}`. Not an
 * AppError: its wire shape is OpenAI's (a free-form `code`, a `type`), and it never leaves the bridge.
 */
export class BridgeError extends Error {
  readonly status: ContentfulStatusCode
  readonly type: OpenAiErrorType
  readonly param: string | null
  readonly code: string | null
  readonly headers: Record<string, string>

  constructor(
    status: ContentfulStatusCode,
    message: string,
    options: {
      type?: OpenAiErrorType
      param?: string | null
      code?: string | null
      headers?: Record<string, string>
      /** The error this one answers for (kept for logs; never sent). */
      cause?: unknown
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'BridgeError'
    this.status = status
    this.type = options.type ?? (status >= 500 ? 'server_error' : 'invalid_request_error')
    this.param = options.param ?? null
    this.code = options.code ?? null
    this.headers = options.headers ?? {}
  }

  toBody(): OpenAiErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } }
  }
}

export function errorResponse(c: Context, error: BridgeError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value)
  return c.json(error.toBody(), error.status)
}

export const bridgeErrors = {
  invalid: (message: string, param: string | null = null, code: string | null = null) =>
    new BridgeError(400, message, { param, code }),
  malformedJson: () =>
    new BridgeError(
      400,
      'We could not parse the JSON body of your request. Send a JSON object with Content-Type: application/json.',
      { code: 'invalid_json' },
    ),
  unknownModel: (model: string) =>
    new BridgeError(
      404,
      `The model \`${model.slice(0, 100)}\` does not exist. GET /v1/models lists the available ones.`,
      { param: 'model', code: 'model_not_found' },
    ),
  noSuchFile: (id: string) =>
    new BridgeError(404, `No such File object: ${id.slice(0, 100)}`, {
      param: 'file_id',
      code: 'file_not_found',
    }),
  notFound: (method: string, path: string) =>
    new BridgeError(404, `Unknown request URL: ${method} ${path.slice(0, 200)}.`, { code: 'unknown_url' }),
  requestTooLarge: (limit: number) =>
    new BridgeError(413, `The request body is larger than the limit of ${limit} bytes.`, {
      code: 'request_too_large',
    }),
  fileTooLarge: (limit: number) =>
    new BridgeError(413, `The file is larger than the limit of ${limit} bytes.`, {
      param: 'file',
      code: 'file_too_large',
    }),
  queueFull: (retryAfterSeconds: number) =>
    new BridgeError(429, 'Too many requests are running or waiting. Retry later.', {
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      headers: { 'retry-after': String(retryAfterSeconds) },
    }),
  internal: () =>
    new BridgeError(500, 'The bridge failed to handle the request.', { code: 'internal_error' }),
}
