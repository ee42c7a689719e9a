import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context, MiddlewareHandler } from 'hono'
import { BridgeError, errorResponse } from '../errors'
import type { BridgeEnv } from '../types'
import { type AuthThrottle, createAuthThrottle } from './authThrottle'
import { type TokenSecrets, verifyBridgeToken } from './tokenStore'

function bearer(header: string | undefined): string | undefined {
  return header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
}

const unauthorized = (message: string, code: string | null) =>
  new BridgeError(401, message, { type: 'invalid_request_error', code })

const throttled = (seconds: number) =>
  new BridgeError(
    429,
    `Too many requests with a wrong API key from this address. Retry after ${seconds} s with a valid bridge token.`,
    {
      type: 'rate_limit_error',
      code: 'too_many_invalid_api_keys',
      headers: { 'retry-after': String(seconds) },
    },
  )

/** The client's address; requests that did not come through a Node socket share one bucket. */
function clientAddress(c: Context<BridgeEnv>): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

/**
 * `/v1/*` needs a bridge API token (`bureau bridge token create NAME`); the UI token does not count.
 * Wrong tokens are throttled per client address (429 with Retry-After); a right one always passes.
 */
export function requireBridgeToken(
  secrets: TokenSecrets,
  throttle: AuthThrottle = createAuthThrottle(),
): MiddlewareHandler<BridgeEnv> {
  return async (c, next) => {
    const token = bearer(c.req.header('authorization'))
    if (!token)
      return errorResponse(
        c,
        unauthorized(
          'You did not provide an API key. Send it as "Authorization: Bearer <token>"; create one with `bureau bridge token create NAME`.',
          'missing_api_key',
        ),
      )
    const name = await verifyBridgeToken(secrets, token)
    if (!name) {
      const wait = throttle.fail(clientAddress(c))
      if (wait > 0) return errorResponse(c, throttled(wait))
      return errorResponse(
        c,
        unauthorized(
          'Incorrect API key provided. Create a bridge token with `bureau bridge token create NAME`.',
          'invalid_api_key',
        ),
      )
    }
    c.set('tokenName', name)
    await next()
  }
}
