import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { app, type BrowserWindow, dialog, session, shell } from 'electron'
import { createApp } from '../app'
import { createLogger } from '../platform'
import { createKeyFileCipher } from '../settings'
import { handleAppProtocol, registerAppScheme } from './appProtocol'
import { bindIpc } from './bindIpc'
import { appendChromiumSwitches } from './chromiumSwitches'
import { createMainWindow } from './createMainWindow'
import { electronNotifier } from './desktopNotifier'
import { electronStoreBackend } from './electronStoreBackend'
import { restrictPermissions } from './hardenWebContents'
import { electronPrintPdf } from './printPdf'
import { createSafeStorageCipher, safeStorageNotice } from './safeStorageCipher'

// The Electron shell: lifecycle, one hardened window, IPC binding. Everything else is plain Node.
const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))
const rendererDir = here('../renderer')
const preloadPath = here('../preload/index.cjs')
const iconPath = here('../../resources/icon.png')

// Switches only count before the app is ready.
appendChromiumSwitches(app.commandLine, process.platform)

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  registerAppScheme()
  let window: BrowserWindow | undefined
  let unbind: (() => void) | undefined

  app.on('second-instance', () => {
    if (!window) return
    if (window.isMinimized()) window.restore()
    window.focus()
  })

  app
    .whenReady()
    .then(async () => {
      const logger = createLogger()
      const dataDir = process.env.BUREAU_DATA_DIR ?? app.getPath('userData')
      app.setPath('userData', dataDir)
      const cipher = createSafeStorageCipher()
      const bureau = await createApp({
        host: 'electron',
        dataDir,
        logger,
        // Secrets set by the headless host or the CLI (key file) stay readable; new ones go to the keychain.
        settings: {
          backend: electronStoreBackend,
          cipher,
          decryptOnlyCiphers: [createKeyFileCipher(dataDir)],
        },
        // workspace.open: the file's system app, or the file manager with the file selected.
        openPath: async (path, reveal) => {
          if (!reveal) return (await shell.openPath(path)) || undefined
          shell.showItemInFolder(path)
          return undefined
        },
        printPdf: electronPrintPdf,
        notifier: (fallback) => electronNotifier(fallback, () => window),
        pickFolder: async ({ title, defaultPath }) => {
          const options = { title, defaultPath, properties: ['openDirectory', 'createDirectory'] as const }
          const picked = window
            ? await dialog.showOpenDialog(window, { ...options, properties: [...options.properties] })
            : await dialog.showOpenDialog({ ...options, properties: [...options.properties] })
          return picked.canceled ? null : (picked.filePaths[0] ?? null)
        },
      })
      const storageWarning = safeStorageNotice(cipher)
      if (storageWarning) bureau.notices.notify(storageWarning)
      restrictPermissions(session.defaultSession)
      handleAppProtocol(rendererDir)
      unbind = bindIpc(bureau)
      window = createMainWindow(preloadPath, existsSync(iconPath) ? iconPath : undefined)
      app.on('before-quit', () => {
        unbind?.()
        void bureau.dispose()
      })
    })
    .catch((error: unknown) => {
      dialog.showErrorBox('Bureau could not start', error instanceof Error ? error.message : String(error))
      app.quit()
    })

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('activate', () => {
    if (!window || window.isDestroyed())
      window = createMainWindow(preloadPath, existsSync(iconPath) ? iconPath : undefined)
  })
}
