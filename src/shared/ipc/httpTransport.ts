import type { IpcTransport } from './client'
import { decodeWire, encodeWire } from './wireCodec'

export interface HttpTransportOptions {
  /** Base URL of the headless host; '' means same origin (the web host serves the renderer). */
  baseUrl?: string
  /** Bearer token; in the browser the cookie set by `/?token=` is used instead. */
  token?: string
  fetch?: typeof fetch
  /** EventSource constructor; absent in plain Node, where events are not needed. */
  EventSource?: typeof EventSource
}

/** The IPC contract over HTTP: POST /ipc/<route>, events as server-sent events on GET /ipc/events. */
export function createHttpTransport(options: HttpTransportOptions = {}): IpcTransport {
  const base = options.baseUrl ?? ''
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (options.token) headers.authorization = `Bearer ${options.token}`

  return {
    kind: 'http',
    async invoke(route, input) {
      let response: Response
      try {
        response = await doFetch(`${base}/ipc/${route}`, {
          method: 'POST',
          headers,
          credentials: 'same-origin',
          body: input === undefined ? '{}' : encodeWire(input),
        })
      } catch {
        return {
          ok: false,
          error: { code: 'UNAVAILABLE', message: 'Bureau is not reachable. Is `bureau serve` running?' },
        }
      }
      const text = await response.text()
      let body: unknown
      try {
        body = text ? decodeWire(text) : undefined
      } catch {
        return {
          ok: false,
          error: { code: 'INTERNAL', message: `Unreadable reply (HTTP ${response.status}).` },
        }
      }
      return response.ok ? { ok: true, value: body } : { ok: false, error: body }
    },
    subscribe(listener) {
      const Source = options.EventSource ?? globalThis.EventSource
      if (!Source) return () => {}
      const source = new Source(`${base}/ipc/events`, { withCredentials: true })
      source.onmessage = (message) => {
        try {
          const { event, payload } = decodeWire(message.data) as { event: string; payload: unknown }
          listener(event, payload)
        } catch {
          // A malformed event is dropped; the stream goes on.
        }
      }
      return () => source.close()
    },
  }
}
