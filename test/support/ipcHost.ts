import { vi } from 'vitest'
import { type BureauApp, createApp } from '../../src/main/app'
import { silentLogger } from '../../src/main/platform'
import { startHttpHost } from '../../src/main/server'
import type { HttpHost } from '../../src/main/server/createHttpHost'
import type { EventName, IpcClient } from '../../src/shared/ipc'
import { httpIpcClient } from './httpIpcClient'

export interface RecordedEvent {
  event: EventName
  payload: Record<string, unknown>
}

export interface IpcHost {
  app: BureauApp
  host: HttpHost
  /** The renderer's typed client over HTTP, its event stream live. */
  client: IpcClient
  /** The listed events as they arrived, oldest first. */
  events: RecordedEvent[]
  /** The first recorded event that matches, waiting up to 5 s for it to arrive. */
  /** Waits up to `timeoutMs` (default 5 s; OCR-bound runs need longer on a busy machine). */
  waitForEvent(match: (recorded: RecordedEvent) => boolean, timeoutMs?: number): Promise<RecordedEvent>
  stop(): Promise<void>
}

/** The app behind the headless host, as the web UI reaches it, recording the given events. */
export async function startIpcHost(options: {
  dataDir: string
  workspaceDir: string
  token: string
  events: readonly EventName[]
  /**
   * Index the workspace in the background, as the app does. Default false: the background index converts the
   * workspace's files with the same converter and opening it holds up the host's close by seconds.
   */
  index?: boolean
}): Promise<IpcHost> {
  const { dataDir, workspaceDir, token } = options
  const app = await createApp({
    host: 'web',
    dataDir,
    workspaceDir,
    logger: silentLogger,
    ...(options.index ? {} : { noIndex: true }),
  })
  const host = await startHttpHost({ app, port: 0, token })
  const { client, ready } = httpIpcClient(host.url, token)
  const events: RecordedEvent[] = []
  for (const event of options.events)
    client.on(event, (payload) => events.push({ event, payload: payload as Record<string, unknown> }))
  await ready
  return {
    app,
    host,
    client,
    events,
    waitForEvent: (match, timeoutMs = 20_000) =>
      vi.waitUntil(() => events.find(match), { timeout: timeoutMs, interval: 10 }),
    async stop() {
      client.close()
      await host.close()
      await app.dispose()
    },
  }
}
