export { appInfo } from './appHandlers'
export type { AppOptions, BureauApp } from './createApp'
export { createApp } from './createApp'
