import { request } from 'node:http'
import { connect } from 'node:net'

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A plain node:http request, so tests can send any Host or Origin header (fetch would not let them). */
export function rawHttp(options: {
  port: number
  method?: string
  path: string
  headers?: Record<string, string>
  body?: string
}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: options.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${options.port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
      },
    )
    req.on('error', reject)
    if (options.body !== undefined) req.write(options.body)
    req.end()
  })
}

export interface ChunkedResult {
  status: number
  body: string
  /** Bytes of body written before the server answered (or closed the connection). */
  bytesSent: number
}

/** The response in `raw` once it is whole (status line, headers and a body by length or chunks). */
function parseWhole(raw: Buffer): { status: number; body: string } | undefined {
  const headEnd = raw.indexOf('\r\n\r\n')
  if (headEnd < 0) return undefined
  const head = raw.subarray(0, headEnd).toString('latin1')
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0)
  let rest = raw.subarray(headEnd + 4)
  if (/^transfer-encoding: *chunked/im.test(head)) {
    const parts: Buffer[] = []
    for (;;) {
      const lineEnd = rest.indexOf('\r\n')
      if (lineEnd < 0) return undefined
      const size = Number.parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16)
      if (size === 0) return { status, body: Buffer.concat(parts).toString('utf8') }
      if (rest.length < lineEnd + 2 + size + 2) return undefined
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size))
      rest = rest.subarray(lineEnd + 2 + size + 2)
    }
  }
  const length = /^content-length: *(\d+)/im.exec(head)?.[1]
  if (length === undefined || rest.length < Number(length)) return undefined
  return { status, body: rest.subarray(0, Number(length)).toString('utf8') }
}

/**
 * A POST with `Transfer-Encoding: chunked` (no Content-Length) that keeps writing 1 MiB chunks until
 * `totalBytes` are sent or the server answers, whichever comes first. A plain socket, not node:http: a
 * server that answers 413 and closes mid-body makes the client's writes fail (EPIPE), and the answer
 * must still be read.
 */
export function rawChunkedPost(options: {
  port: number
  path: string
  headers?: Record<string, string>
  totalBytes: number
}): Promise<ChunkedResult> {
  return new Promise((resolve, reject) => {
    let bytesSent = 0
    let sentWhenAnswered: number | undefined
    let received = Buffer.alloc(0)
    const socket = connect(options.port, '127.0.0.1')
    const finish = () => {
      const whole = parseWhole(received)
      if (!whole) return false
      socket.destroy()
      resolve({ ...whole, bytesSent: sentWhenAnswered ?? bytesSent })
      return true
    }
    socket.on('data', (data: Buffer) => {
      sentWhenAnswered ??= bytesSent
      received = Buffer.concat([received, data])
      finish()
    })
    socket.on('close', () => {
      if (!finish())
        reject(new Error(`the server closed the connection without a whole answer after ${bytesSent} bytes`))
    })
    // Writes fail once the server has answered and closed; what it answered is read above.
    socket.on('error', () => undefined)
    const headers = { host: `127.0.0.1:${options.port}`, 'transfer-encoding': 'chunked', ...options.headers }
    socket.write(
      `POST ${options.path} HTTP/1.1\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}\r\n`,
    )
    const chunk = Buffer.concat([
      Buffer.from(`${(1024 * 1024).toString(16)}\r\n`),
      Buffer.alloc(1024 * 1024, 0x20),
      Buffer.from('\r\n'),
    ])
    const pump = () => {
      while (sentWhenAnswered === undefined && !socket.destroyed && bytesSent < options.totalBytes) {
        bytesSent += 1024 * 1024
        if (!socket.write(chunk)) {
          socket.once('drain', pump)
          return
        }
      }
      if (sentWhenAnswered === undefined && !socket.destroyed) socket.write('0\r\n\r\n')
    }
    pump()
  })
}
