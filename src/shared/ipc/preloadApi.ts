import type { IpcTransport } from './client'

/**
 * What the preload puts on `window.bureau`: the contract's transport. The renderer wraps it with
 * `createIpcClient` because errors cannot cross Electron's contextBridge with their code intact.
 */
export type BureauPreloadApi = IpcTransport & { platform: string }

export const IPC_INVOKE_CHANNEL = 'bureau:invoke'
export const IPC_EVENT_CHANNEL = 'bureau:event'
