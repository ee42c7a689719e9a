import { type Events, events, type HostKind, routes } from '../../shared/ipc'
import { createEventBus, createIpcRouter, type EventBus, type IpcRouter } from '../ipc'
import { createLogger, type Logger } from '../logging'
import { createNoticeCenter, type NoticeCenter } from '../notices'
import { ensureWritableDir } from '../paths'
import { appHandlers } from './appHandlers'
import { unavailableHandlers } from './unavailableHandlers'

export interface AppOptions {
  host: HostKind
  dataDir: string
  workspaceDir: string
  logger?: Logger
}

/** The running app as every transport sees it. */
export interface BureauApp {
  readonly options: AppOptions
  readonly router: IpcRouter
  readonly events: EventBus<Events>
  readonly notices: NoticeCenter
  readonly logger: Logger
  dispose(): Promise<void>
}

/**
 * The composition root: builds every service once, wires their dependencies explicitly
 * and registers their IPC handlers. Transports (Electron, HTTP, CLI) only talk to the result.
 */
export async function createApp(options: AppOptions): Promise<BureauApp> {
  const logger = options.logger ?? createLogger()
  await ensureWritableDir(options.dataDir, 'data folder')
  await ensureWritableDir(options.workspaceDir, 'workspace folder')

  const bus = createEventBus(events, {
    onInvalid: (event, error) => logger.error('dropped an invalid event', { event, error: String(error) }),
  })
  const notices = createNoticeCenter((notice) => bus.emit('app.notice', notice))
  const disposers: Array<() => Promise<void> | void> = []

  const router = createIpcRouter(
    routes,
    {
      ...appHandlers({ host: options.host, notices }),
      ...unavailableHandlers(),
    },
    { onHandlerError: (route, error) => logger.error('handler failed', { route, error: String(error) }) },
  )

  return {
    options,
    router,
    events: bus,
    notices,
    logger,
    async dispose() {
      for (const dispose of disposers.reverse()) await dispose()
    },
  }
}
