import { request } from 'node:http'

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

/**
 * A POST with `Transfer-Encoding: chunked` (no Content-Length) that keeps writing 1 MiB chunks until
 * `totalBytes` are sent or the server answers, whichever comes first.
 */
export function rawChunkedPost(options: {
  port: number
  path: string
  headers?: Record<string, string>
  totalBytes: number
}): Promise<ChunkedResult> {
  return new Promise((resolve, reject) => {
    let bytesSent = 0
    let answered = false
    const req = request(
      {
        host: '127.0.0.1',
        port: options.port,
        method: 'POST',
        path: options.path,
        headers: { host: `127.0.0.1:${options.port}`, 'transfer-encoding': 'chunked', ...options.headers },
      },
      (res) => {
        answered = true
        const sentWhenAnswered = bytesSent
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            bytesSent: sentWhenAnswered,
          })
          req.destroy()
        })
      },
    )
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!answered) reject(error)
    })
    const chunk = Buffer.alloc(1024 * 1024, 0x20)
    const pump = () => {
      while (!answered && !req.destroyed && bytesSent < options.totalBytes) {
        bytesSent += chunk.length
        if (!req.write(chunk)) {
          req.once('drain', pump)
          return
        }
      }
      if (!answered && !req.destroyed) req.end()
    }
    pump()
  })
}
