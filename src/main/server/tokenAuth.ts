import type { Context, MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { tokensMatch } from './tokens'

export const TOKEN_COOKIE = 'bureau_token'

export function bearerToken(c: Context): string | undefined {
  const header = c.req.header('authorization')
  const match = header?.match(/^Bearer\s+(.+)$/i)
  return match?.[1]?.trim()
}

/** `/ipc/*` needs the UI token: a Bearer header, or the cookie set when the printed URL was opened. */
export function requireUiToken(token: string): MiddlewareHandler {
  return async (c, next) => {
    const given = bearerToken(c) ?? getCookie(c, TOKEN_COOKIE)
    if (!tokensMatch(given, token)) {
      const message = given
        ? 'Wrong token.'
        : 'Missing token. Open the URL printed by `bureau serve` (it carries ?token=).'
      return c.json({ code: 'UNAUTHORIZED', message }, 401)
    }
    await next()
  }
}

/** Opening `/?token=...` stores the token in an HttpOnly cookie and drops it from the address bar. */
export function acceptTokenFromUrl(token: string): MiddlewareHandler {
  return async (c, next) => {
    const given = c.req.query('token')
    if (given === undefined) return next()
    if (!tokensMatch(given, token))
      return c.json({ code: 'UNAUTHORIZED', message: 'Wrong token in the URL.' }, 401)
    setCookie(c, TOKEN_COOKIE, token, { httpOnly: true, sameSite: 'Strict', path: '/' })
    return c.redirect(c.req.path, 302)
  }
}
