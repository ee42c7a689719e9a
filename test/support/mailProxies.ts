import { connect, createServer, type Server, type Socket } from 'node:net'
import { createServer as createTlsServer } from 'node:tls'

// TCP fronts for the mail servers of the e-mail tests: one that cuts connections mid-transfer (the
// "server gone mid-fetch" case), one that speaks TLS with a given certificate (the bad-certificate case).

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as { port: number }).port
}

function closer(server: Server, sockets: Set<Socket>) {
  return () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    })
}

export interface CutProxy {
  port: number
  /** Cuts every open connection once `bytes` more bytes went from the server to the client. */
  cutAfter(bytes: number): void
  /** How many connections were cut so far. */
  cuts(): number
  /** Stops cutting. */
  heal(): void
  close(): Promise<void>
}

/** Forwards 127.0.0.1:<port> to `target`, and cuts connections in the middle of a reply when armed. */
export async function startCutProxy(target: number): Promise<CutProxy> {
  const sockets = new Set<Socket>()
  let budget: number | undefined
  let cuts = 0
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1')
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => {})
    }
    client.pipe(upstream)
    upstream.on('data', (chunk: Buffer) => {
      if (budget === undefined) return void client.write(chunk)
      if (chunk.length < budget) {
        budget -= chunk.length
        return void client.write(chunk)
      }
      client.write(chunk.subarray(0, budget))
      cuts++
      client.destroy()
      upstream.destroy()
    })
    upstream.on('close', () => client.destroy())
    client.on('close', () => upstream.destroy())
  })
  const port = await listen(server)
  return {
    port,
    cutAfter: (bytes) => {
      budget = bytes
    },
    cuts: () => cuts,
    heal: () => {
      budget = undefined
    },
    close: closer(server, sockets),
  }
}

/** A TLS server with `cert`/`key` that forwards the decrypted stream to the plain server at `target`. */
export async function startTlsFront(
  target: number,
  cert: Buffer,
  key: Buffer,
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createTlsServer({ cert, key }, (client) => {
    const upstream = connect(target, '127.0.0.1')
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => {})
    }
    client.pipe(upstream).pipe(client)
  })
  server.on('tlsClientError', () => {})
  const port = await listen(server)
  return { port, close: closer(server, sockets) }
}
