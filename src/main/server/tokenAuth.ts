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

/** What a browser shows for a wrong link: a page for a person, not JSON (the link was likely cut when copied). */
const WRONG_LINK_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bureau: this link does not open Bureau</title></head>
<body>
<main>
<h1>This link does not open Bureau</h1>
<p>The token at the end of the address is not the right one. A link copied from a terminal is often cut short or wrapped onto two lines.</p>
<p>Copy the whole address that <code>bureau serve</code> printed (it ends with <code>?token=</code> and a long code) and open it again. If Bureau was restarted, it printed a new address.</p>
</main>
</body>
</html>
`

/** Opening `/?token=...` stores the token in an HttpOnly cookie and drops it from the address bar. */
export function acceptTokenFromUrl(token: string): MiddlewareHandler {
  return async (c, next) => {
    const given = c.req.query('token')
    if (given === undefined) return next()
    if (!tokensMatch(given, token)) {
      if (c.req.header('accept')?.includes('text/html')) return c.html(WRONG_LINK_PAGE, 401)
      return c.json({ code: 'UNAUTHORIZED', message: 'Wrong token in the URL.' }, 401)
    }
    setCookie(c, TOKEN_COOKIE, token, { httpOnly: true, sameSite: 'Strict', path: '/' })
    return c.redirect(c.req.path, 302)
  }
}
