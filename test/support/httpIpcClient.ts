import { createHttpTransport, createIpcClient, type IpcClient } from '../../src/shared/ipc'

/**
 * The renderer's typed IPC client over HTTP, in Node: events arrive through a fetch-based stand-in for
 * EventSource (Node 20 has none) that sends the bearer token. `ready` resolves once the stream is live.
 */
export function httpIpcClient(baseUrl: string, token: string): { client: IpcClient; ready: Promise<void> } {
  let markReady: () => void = () => {}
  const ready = new Promise<void>((resolve) => {
    markReady = resolve
  })
  class FetchEventSource {
    onmessage: ((message: { data: string }) => void) | null = null
    private readonly controller = new AbortController()
    constructor(url: string) {
      void this.read(url).catch(() => undefined)
    }
    private async read(url: string) {
      const response = await fetch(url, {
        headers: { authorization: `Bearer ${token}` },
        signal: this.controller.signal,
      })
      const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader()
      let buffer = ''
      while (reader) {
        const { value, done } = await reader.read()
        if (done) return
        buffer += value
        let end = buffer.indexOf('\n\n')
        while (end >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          end = buffer.indexOf('\n\n')
          const lines = block.split('\n')
          const event = lines
            .find((l) => l.startsWith('event:'))
            ?.slice(6)
            .trim()
          const data = lines
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).replace(/^ /, ''))
            .join('\n')
          if (event === 'ready') markReady()
          else if (!event && data) this.onmessage?.({ data })
        }
      }
    }
    close() {
      this.controller.abort()
    }
  }
  const client = createIpcClient(
    createHttpTransport({ baseUrl, token, EventSource: FetchEventSource as unknown as typeof EventSource }),
  )
  return { client, ready }
}
