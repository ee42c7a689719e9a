import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>

export interface FixtureServer {
  origin: string
  url(path: string): string
  close(): Promise<void>
}

/** A 127.0.0.1 server for fixture pages; hanging responses are cut when it closes. */
export async function startFixtureServer(routes: Record<string, Handler | string>): Promise<FixtureServer> {
  const open = new Set<ServerResponse>()
  const server: Server = createServer(async (req, res) => {
    open.add(res)
    res.on('close', () => open.delete(res))
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const route = routes[url.pathname]
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    if (typeof route === 'string') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(route)
      return
    }
    await route(req, res, url)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const origin = `http://127.0.0.1:${port}`
  return {
    origin,
    url: (path) => `${origin}${path}`,
    close: async () => {
      for (const res of open) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

export function html(res: ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body)
}
