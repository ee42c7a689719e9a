import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { Hono } from 'hono'
import { AppError } from '../../shared/errors'
import type { BureauApp } from '../app'
import { APP_VERSION } from '../appVersion'
import { hostGuard } from './hostGuard'
import { mountIpcEndpoints } from './ipcEndpoints'
import { mountRendererEndpoints } from './rendererEndpoints'
import { acceptTokenFromUrl, requireUiToken } from './tokenAuth'
import { generateToken } from './tokens'

export interface HttpHostOptions {
  app: BureauApp
  host?: string
  port?: number
  token?: string
  rendererDir?: string
  /** Extra endpoints (e.g. the OpenAI-compatible /v1 bridge), mounted after the security guards. */
  mounts?: Array<(http: Hono) => void>
}

export interface HttpHost {
  url: string
  /** The URL to open in a browser: carries the token once, which then lives in a cookie. */
  openUrl: string
  port: number
  token: string
  close(): Promise<void>
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): AppError {
  if (error.code === 'EADDRINUSE') {
    return new AppError(
      'UNAVAILABLE',
      `Port ${port} on ${host} is already in use. Stop the other program or pick another port with --port.`,
      { cause: error },
    )
  }
  if (error.code === 'EACCES')
    return new AppError(
      'UNAVAILABLE',
      `Not allowed to listen on ${host}:${port}. Pick a port above 1024 with --port.`,
      { cause: error },
    )
  if (error.code === 'EADDRNOTAVAIL')
    return new AppError('UNAVAILABLE', `The address ${host} is not available on this machine.`, {
      cause: error,
    })
  return new AppError('UNAVAILABLE', `Cannot listen on ${host}:${port}: ${error.message}`, { cause: error })
}

export function buildHttpApp(options: HttpHostOptions & { port: number; token: string; host: string }): Hono {
  const http = new Hono()
  http.use('*', hostGuard({ bindHost: options.host, port: options.port }))
  http.get('/health', (c) => c.json({ status: 'ok', version: APP_VERSION }))
  http.use('/ipc/*', requireUiToken(options.token))
  mountIpcEndpoints(http, options.app)
  for (const mount of options.mounts ?? []) mount(http)
  http.use('/', acceptTokenFromUrl(options.token))
  mountRendererEndpoints(http, options.rendererDir)
  http.onError((error, c) => {
    options.app.logger.error('http request failed', { path: c.req.path, error: String(error) })
    return c.json({ code: 'INTERNAL', message: 'Internal error.' }, 500)
  })
  return http
}

/** Starts the headless host: the renderer, /health, and the IPC contract over HTTP. */
export async function startHttpHost(options: HttpHostOptions): Promise<HttpHost> {
  const host = options.host ?? '127.0.0.1'
  const requestedPort = options.port ?? 8321
  const token = options.token ?? generateToken()
  let http: Hono | undefined
  const server = createAdaptorServer({
    fetch: (request, env) => http?.fetch(request, env) ?? new Response(null, { status: 503 }),
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, host, requestedPort)))
    server.listen(requestedPort, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  http = buildHttpApp({ ...options, host, port, token })

  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host
  const url = `http://${urlHost}:${port}`
  return {
    url,
    openUrl: `${url}/?token=${encodeURIComponent(token)}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
