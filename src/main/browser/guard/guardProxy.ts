import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http'
import { connect, isIPv6, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { UrlGuard } from '../../tools'

/**
 * The network-level backstop of the browser Bureau launches: every connection the browser makes
 * (pages, frames, dedicated and shared workers, their WebSockets, blob: and data: workers alike) goes
 * through this local proxy, which connects only to addresses the URL guard checked in the same step.
 * The DevTools guards stay in front (they name the refused request to the tab); this catches what
 * DevTools cannot pause in time, such as a worker's WebSocket.
 */
export interface GuardProxy {
  /** `http://127.0.0.1:PORT`, for Chromium's --proxy-server. */
  readonly url: string
  close(): Promise<void>
}

export interface GuardProxyOptions {
  guard: Pick<UrlGuard, 'resolve'>
  /** A connection was refused (nobody else saw it): the address and the guard's error. */
  onRefused?: (url: string, error: unknown) => void
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The address the guard is asked about for a tunnel: https on 443, http otherwise (the rules are by host and port). */
function tunnelUrl(authority: string): URL | null {
  try {
    const url = new URL(`http://${authority}`)
    if (!url.port) return null
    return url.port === '443' ? new URL(`https://${url.hostname}/`) : url
  } catch {
    return null
  }
}

function refuseSocket(socket: Duplex, status: string) {
  socket.on('error', () => {})
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}

/** Connects to the first checked address that answers. */
function connectTo(addresses: string[], port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const attempt = (index: number, lastError?: unknown) => {
      const address = addresses[index]
      if (address === undefined) return reject(lastError ?? new Error('no address'))
      const socket = connect({ host: address, port, family: isIPv6(address) ? 6 : 4 })
      socket.once('connect', () => resolve(socket))
      socket.once('error', (error) => attempt(index + 1, error))
    }
    attempt(0)
  })
}

export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  const { guard } = options
  const refused = (url: string, error: unknown) => options.onRefused?.(url, error)

  /** Tunnels are no longer the server's connections once upgraded: closed with it by hand. */
  const tunnels = new Set<Duplex>()

  async function tunnel(req: IncomingMessage, client: Duplex, head: Buffer) {
    client.on('error', () => {})
    tunnels.add(client)
    client.on('close', () => tunnels.delete(client))
    const url = tunnelUrl(req.url ?? '')
    if (!url) return refuseSocket(client, '400 Bad Request')
    let addresses: string[]
    try {
      addresses = await guard.resolve(url)
    } catch (error) {
      refused(url.href, error)
      return refuseSocket(client, '403 Forbidden')
    }
    const upstream = await connectTo(addresses, Number(url.port || 443)).catch(() => null)
    if (!upstream) return refuseSocket(client, '502 Bad Gateway')
    upstream.on('error', () => client.destroy())
    client.on('close', () => upstream.destroy())
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    if (head.length > 0) upstream.write(head)
    upstream.pipe(client)
    client.pipe(upstream)
  }

  async function forward(req: IncomingMessage, res: ServerResponse) {
    let url: URL
    try {
      url = new URL(req.url ?? '')
      if (url.protocol !== 'http:') throw new Error('not an http URL')
    } catch {
      return void res.writeHead(400).end()
    }
    let addresses: string[]
    try {
      addresses = await guard.resolve(url)
    } catch (error) {
      refused(url.href, error)
      return void res.writeHead(403, { 'content-type': 'text/plain' }).end(messageOf(error))
    }
    const headers = { ...req.headers }
    delete headers['proxy-connection']
    delete headers['proxy-authorization']
    const upstream = request(
      {
        host: addresses[0],
        family: isIPv6(addresses[0] ?? '') ? 6 : 4,
        port: Number(url.port || 80),
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers,
        setHost: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end()
      else res.destroy()
    })
    req.pipe(upstream)
  }

  const server = createServer((req, res) => void forward(req, res))
  server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => void tunnel(req, socket, head))
  // Chromium tunnels ws:// with CONNECT; a plain upgrade through the proxy is not something it sends.
  server.on('upgrade', (_req: IncomingMessage, socket: Duplex) => refuseSocket(socket, '403 Forbidden'))
  server.on('clientError', (_error, socket) => socket.destroy())
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        for (const socket of tunnels) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
