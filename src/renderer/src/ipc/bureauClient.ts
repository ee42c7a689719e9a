import {
  type BureauPreloadApi,
  createHttpTransport,
  createIpcClient,
  type IpcClient,
} from '../../../shared/ipc'

declare global {
  interface Window {
    bureau?: BureauPreloadApi
  }
}

/** The desktop app's preload transport when present, else the headless host over HTTP (same origin). */
function createClient(): IpcClient {
  return createIpcClient(window.bureau ?? createHttpTransport())
}

export const bureau: IpcClient = createClient()
