export type { IpcClient, IpcTransport } from './client'
export { createIpcClient } from './client'
export type { EventName, Events, RouteName, Routes } from './contract'
export { events, routes } from './contract'
export type {
  EventMap,
  EventPayload,
  RouteDef,
  RouteInput,
  RouteMap,
  RouteOutput,
  RouteParsedInput,
} from './defineContract'
export { route } from './defineContract'
export { createHttpTransport } from './httpTransport'
export type { BureauPreloadApi } from './preloadApi'
export { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from './preloadApi'
export * from './routes/app'
export * from './routes/attachments'
export * from './routes/automations'
export * from './routes/browser'
export * from './routes/chat'
export * from './routes/documents'
export * from './routes/eval'
export * from './routes/knowledge'
export * from './routes/mcp'
export * from './routes/memory'
export * from './routes/models'
export * from './routes/preview'
export * from './routes/providers'
export * from './routes/settings'
export * from './routes/ui'
export * from './routes/voice'
export * from './routes/workspace'
export { base64ToBytes, bytesToBase64, decodeWire, encodeWire } from './wireCodec'
