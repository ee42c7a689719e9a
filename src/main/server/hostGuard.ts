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
    const host = c.req.header('host')?.toLowerCase()
    if (!host || !hosts.has(host)) {
      return c.json(
        { code: 'FORBIDDEN', message: 'Host not allowed. Open Bureau through 127.0.0.1 or localhost.' },
        403,
      )
    }
    const origin = c.req.header('origin')
    if (origin && c.req.method !== 'GET' && c.req.method !== 'HEAD' && !origins.has(origin.toLowerCase())) {
      return c.json({ code: 'FORBIDDEN', message: 'Cross-origin requests are not allowed.' }, 403)
    }
    await next()
  }
}
