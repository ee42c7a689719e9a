import { z } from 'zod'

/**
 * A DevTools connection of Bureau's own to a browser it reached over CDP, next to Playwright's.
 * Playwright's CDP sessions cannot address the sessions of auto-attached targets, and only those
 * let a new tab be paused until its requests are under the guard.
 */
export interface CdpWire {
  send(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<unknown>
  /** Events of every session on the connection; `sessionId` is undefined for the browser's own. */
  on(method: string, listener: (params: unknown, sessionId: string | undefined) => void): void
  /** Called once when the connection ends without `close` (the browser quit or the socket broke). */
  onLost(listener: () => void): void
  close(): Promise<void>
}

const CONNECT_TIMEOUT_MS = 15_000

const VersionInfo = z.object({ webSocketDebuggerUrl: z.string().regex(/^wss?:\/\//) })

const Message = z.object({
  id: z.number().optional(),
  method: z.string().optional(),
  params: z.unknown().optional(),
  sessionId: z.string().optional(),
  result: z.unknown().optional(),
  error: z.object({ message: z.string() }).optional(),
})

/** The browser's WebSocket address for an http://host:port endpoint (a ws:// endpoint is used as is). */
async function browserSocketUrl(endpoint: string): Promise<string> {
  if (/^wss?:\/\//i.test(endpoint)) return endpoint
  const response = await fetch(new URL('/json/version', endpoint), {
    signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS),
  })
  if (!response.ok) throw new Error(`${endpoint}/json/version answered HTTP ${response.status}`)
  return VersionInfo.parse(await response.json()).webSocketDebuggerUrl
}

export async function openCdpWire(endpoint: string): Promise<CdpWire> {
  const { default: WebSocket } = await import('ws')
  const socket = new WebSocket(await browserSocketUrl(endpoint), {
    perMessageDeflate: false,
    handshakeTimeout: CONNECT_TIMEOUT_MS,
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })

  let lastId = 0
  let closing = false
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  const listeners = new Map<string, ((params: unknown, sessionId: string | undefined) => void)[]>()
  const lostListeners: (() => void)[] = []

  socket.on('message', (data) => {
    let message: z.infer<typeof Message>
    try {
      message = Message.parse(JSON.parse(String(data)))
    } catch {
      return
    }
    if (message.id !== undefined) {
      const waiting = pending.get(message.id)
      pending.delete(message.id)
      if (message.error) waiting?.reject(new Error(message.error.message))
      else waiting?.resolve(message.result)
      return
    }
    if (!message.method) return
    for (const listener of listeners.get(message.method) ?? []) listener(message.params, message.sessionId)
  })
  socket.on('error', () => {})
  socket.on('close', () => {
    for (const waiting of pending.values()) waiting.reject(new Error('the DevTools connection closed'))
    pending.clear()
    if (!closing) for (const listener of lostListeners.splice(0)) listener()
  })

  return {
    send(method, params = {}, sessionId) {
      if (socket.readyState !== WebSocket.OPEN)
        return Promise.reject(new Error('the DevTools connection is closed'))
      const id = ++lastId
      socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }))
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }))
    },
    on(method, listener) {
      listeners.set(method, [...(listeners.get(method) ?? []), listener])
    },
    onLost(listener) {
      lostListeners.push(listener)
    },
    async close() {
      closing = true
      if (socket.readyState === WebSocket.CLOSED) return
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
      socket.close()
      await closed
    },
  }
}
