import type { MiddlewareHandler } from 'hono'

export interface HostGuardOptions {
  /** The address the server is bound to (added to the allowed Host names when it is not loopback). */
  bindHost: string
  port: number
}

export function allowedHosts({ bindHost, port }: HostGuardOptions): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]'])
  if (!['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::'].includes(bindHost)) {
    names.add(bindHost.includes(':') ? `[${bindHost}]` : bindHost)
  }
  return new Set([...names].map((name) => `${name}:${port}`))
}

/**
 * Against DNS rebinding and cross-site requests: the Host header must name this server,
 * and a state-changing request that carries an Origin must come from this server's origin.
 */
export function hostGuard(options: HostGuardOptions): MiddlewareHandler {
  const hosts = allowedHosts(options)
  const origins = new Set([...hosts].map((host) => `http://${host}`))
  return async (c, next) => {
    // OpenAI clients of the /v1 bridge expect OpenAI's error shape; everything else gets Bureau's.
    const forbidden = (message: string) =>
      c.req.path.startsWith('/v1/')
        ? c.json({ error: { message, type: 'invalid_request_error', param: null, code: 'forbidden' } }, 403)
        : c.json({ code: 'FORBIDDEN', message }, 403)
    const host = c.req.header('host')?.toLowerCase()
    if (!host || !hosts.has(host))
      return forbidden('Host not allowed. Open Bureau through 127.0.0.1 or localhost.')
    const origin = c.req.header('origin')
    if (origin && c.req.method !== 'GET' && c.req.method !== 'HEAD' && !origins.has(origin.toLowerCase())) {
      return forbidden('Cross-origin requests are not allowed.')
    }
    await next()
  }
}
