import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { type BridgeError, errorResponse } from '../errors'
import type { BridgeEnv } from '../types'

/** Hono's body limit (Content-Length, or counted while a chunked body arrives) with an OpenAI-shaped 413. */
export function limitBody(
  maxBytes: () => number,
  error: (limit: number) => BridgeError,
): MiddlewareHandler<BridgeEnv> {
  return (c, next) => {
    const limit = maxBytes()
    return bodyLimit({
      maxSize: limit,
      onError: (ctx) => {
        // The rest of the body is not read: the client must not reuse this connection.
        ctx.header('connection', 'close')
        return errorResponse(ctx, error(limit))
      },
    })(c, next)
  }
}
