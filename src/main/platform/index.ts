export { contentTypeOf } from './contentType'
export { APP_DIR_NAME, defaultCacheDir, defaultDataDir, defaultWorkspaceDir } from './defaultPaths'
export {
  type DesktopNotification,
  type DesktopNotifier,
  noticeNotifier,
} from './desktopNotifier'
export { ensureWritableDir } from './ensureWritableDir'
export type { EventBus, EventListener } from './eventBus'
export { createEventBus } from './eventBus'
export type { Logger, LoggerOptions, LogLevel } from './logger'
export { createLogger, silentLogger } from './logger'
export type { NoticeCenter } from './noticeCenter'
export { createNoticeCenter } from './noticeCenter'
export { locateRendererDir } from './rendererDir'
export type { DispatchResult, ExactHandlers, Handler, HandlerContext, HandlersFor, IpcRouter } from './router'
export { createIpcRouter, errorPayloadOf, toIssues } from './router'
