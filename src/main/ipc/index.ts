export type { EventBus, EventListener } from './eventBus'
export { createEventBus } from './eventBus'
export type { DispatchResult, ExactHandlers, Handler, HandlerContext, HandlersFor, IpcRouter } from './router'
export { createIpcRouter, errorPayloadOf, toIssues } from './router'
