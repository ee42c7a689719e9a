import { BrowserWindow, nativeTheme } from 'electron'
import { APP_ORIGIN } from './appProtocol'
import { hardenWebContents } from './hardenWebContents'

export function createMainWindow(preloadPath: string, iconPath: string | undefined): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 840,
    minWidth: 720,
    minHeight: 520,
    show: false,
    title: 'Bureau',
    icon: iconPath,
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#16181d' : '#ffffff',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: true,
    },
  })
  hardenWebContents(window.webContents)
  window.once('ready-to-show', () => window.show())
  void window.loadURL(`${APP_ORIGIN}/`)
  return window
}
