import type { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { streamSSE } from 'hono/streaming'
import { httpStatusFor } from '../../shared/errors'
import { decodeWire, encodeWire } from '../../shared/ipc'
import type { BureauApp } from '../app'

const MAX_IPC_BODY = 64 * 1024 * 1024

function jsonResponse(body: unknown, status: number): Response {
  return new Response(encodeWire(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  })
}

/**
 * Checks Content-Length up front, and counts a chunked body as it arrives: 413 at the limit, the rest
 * is never read (the connection is closed so the client cannot reuse it mid-body).
 */
const ipcBodyLimit = bodyLimit({
  maxSize: MAX_IPC_BODY,
  onError: (c) => {
    c.header('connection', 'close')
    return jsonResponse(
      { code: 'TOO_LARGE', message: `Request body too large (the limit is ${MAX_IPC_BODY / 2 ** 20} MiB).` },
      413,
    )
  },
})

/** The IPC contract over HTTP: `POST /ipc/<route>` and `GET /ipc/events` (server-sent events). */
export function mountIpcEndpoints(http: Hono, app: BureauApp): void {
  let nextSender = 1

  http.post('/ipc/:route', ipcBodyLimit, async (c) => {
    const route = c.req.param('route')
    if (!app.router.has(route))
      return jsonResponse({ code: 'UNKNOWN_ROUTE', message: `Unknown route "${route}".` }, 404)
    const text = await c.req.text()
    let input: unknown
    try {
      input = text.trim() === '' ? undefined : decodeWire(text)
    } catch {
      return jsonResponse(
        { code: 'VALIDATION_FAILED', message: 'The request body is not valid JSON.', issues: [] },
        400,
      )
    }
    const result = await app.router.dispatch(route, input, {
      senderId: `http:${c.req.header('x-bureau-client') ?? 'web'}`,
      signal: c.req.raw.signal,
    })
    return result.ok
      ? jsonResponse(result.value, 200)
      : jsonResponse(result.error, httpStatusFor(result.error.code))
  })

  http.get('/ipc/events', (c) => {
    const sender = `sse:${nextSender++}`
    return streamSSE(c, async (stream) => {
      const queue: string[] = []
      let wake: (() => void) | undefined
      const unsubscribe = app.events.subscribe((event, payload) => {
        queue.push(encodeWire({ event, payload }))
        wake?.()
      })
      stream.onAbort(() => {
        unsubscribe()
        wake?.()
      })
      await stream.writeSSE({ event: 'ready', data: JSON.stringify({ sender }) })
      while (!stream.aborted) {
        const data = queue.shift()
        if (data !== undefined) {
          await stream.writeSSE({ data })
          continue
        }
        // Wake on a new event, or every 15 s to send a keep-alive comment through proxies.
        await new Promise<void>((resolve) => {
          wake = resolve
          setTimeout(resolve, 15_000).unref()
        })
        wake = undefined
        if (queue.length === 0 && !stream.aborted) await stream.write(': keep-alive\n\n')
      }
      unsubscribe()
    })
  })
}
