import type { MiddlewareHandler } from 'hono'
import { BridgeError, errorResponse } from '../errors'
import type { BridgeEnv } from '../types'
import { type TokenSecrets, verifyBridgeToken } from './tokenStore'

function bearer(header: string | undefined): string | undefined {
  return header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
}

const unauthorized = (message: string, code: string | null) =>
  new BridgeError(401, message, { type: 'invalid_request_error', code })

/** `/v1/*` needs a bridge API token (`bureau bridge token create NAME`); the UI token does not count. */
export function requireBridgeToken(secrets: TokenSecrets): MiddlewareHandler<BridgeEnv> {
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
    if (!name)
      return errorResponse(
        c,
        unauthorized(
          'Incorrect API key provided. Create a bridge token with `bureau bridge token create NAME`.',
          'invalid_api_key',
        ),
      )
    c.set('tokenName', name)
    await next()
  }
}
