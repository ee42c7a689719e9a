import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron'
import { type BureauPreloadApi, IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../shared/ipc/preloadApi'

// The only bridge between the sandboxed renderer and main: the contract's transport, nothing else.
const api: BureauPreloadApi = {
  kind: 'electron',
  platform: process.platform,
  invoke: (route, input) => ipcRenderer.invoke(IPC_INVOKE_CHANNEL, route, input),
  subscribe(listener) {
    const handler = (_event: IpcRendererEvent, name: string, payload: unknown) => listener(name, payload)
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler)
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler)
    }
  },
}

contextBridge.exposeInMainWorld('bureau', api)
