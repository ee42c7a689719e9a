import { BrowserWindow, type IpcMainInvokeEvent, ipcMain, type WebContents } from 'electron'
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/ipc'
import type { BureauApp } from '../app'
import { isAppUrl } from './hardenWebContents'

/** Only the app's own top frame may call the router; anything else is refused. */
function fromAppFrame(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame
  return Boolean(frame && frame === event.sender.mainFrame && isAppUrl(frame.url))
}

/** One signal per window, fired when it goes away, so its running requests stop. */
const signals = new WeakMap<WebContents, AbortController>()
function signalFor(contents: WebContents): AbortSignal {
  let controller = signals.get(contents)
  if (!controller) {
    const created = new AbortController()
    contents.once('destroyed', () => created.abort())
    signals.set(contents, created)
    controller = created
  }
  return controller.signal
}

export function bindIpc(app: BureauApp): () => void {
  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, route: unknown, input: unknown) => {
    if (!fromAppFrame(event))
      return { ok: false, error: { code: 'FORBIDDEN', message: 'IPC refused: not the app frame.' } }
    if (typeof route !== 'string')
      return { ok: false, error: { code: 'UNKNOWN_ROUTE', message: 'Route must be a string.' } }
    return app.router.dispatch(route, input, {
      senderId: `electron:${event.sender.id}`,
      signal: signalFor(event.sender),
    })
  })
  const unsubscribe = app.events.subscribe((name, payload) => {
    for (const window of BrowserWindow.getAllWindows()) {
      if (!window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, name, payload)
    }
  })
  return () => {
    ipcMain.removeHandler(IPC_INVOKE_CHANNEL)
    unsubscribe()
  }
}
