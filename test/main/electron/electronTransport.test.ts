import { EventEmitter } from 'node:events'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type BureauApp, createApp } from '../../../src/main/app'
import { silentLogger } from '../../../src/main/platform'
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../../src/shared/ipc'
import { tempDirs } from '../../support/tempDir'

// Electron's main-process objects as far as the shell uses them: the real router behind them runs as is.
const fake = vi.hoisted(() => {
  type Handler = (event: unknown, ...args: unknown[]) => unknown
  const handlers = new Map<string, Handler>()
  const sent: unknown[][] = []
  const opened: string[] = []
  return {
    handlers,
    sent,
    opened,
    electron: {
      ipcMain: {
        handle: (channel: string, handler: Handler) => handlers.set(channel, handler),
        removeHandler: (channel: string) => handlers.delete(channel),
      },
      BrowserWindow: {
        getAllWindows: () => [
          { isDestroyed: () => false, webContents: { send: (...args: unknown[]) => sent.push(args) } },
        ],
      },
      shell: { openExternal: async (url: string) => void opened.push(url) },
    },
  }
})
vi.mock('electron', () => fake.electron)

const { bindIpc } = await import('../../../src/main/electron/bindIpc')
const { hardenWebContents, restrictPermissions } = await import(
  '../../../src/main/electron/hardenWebContents'
)

/** A renderer as ipcMain sees it: its main frame, and the frame a message came from. */
function sender(url: string, fromSubframe = false) {
  const contents = Object.assign(new EventEmitter(), { id: 7, mainFrame: { url } })
  const senderFrame = fromSubframe ? { url } : contents.mainFrame
  return { sender: contents, senderFrame }
}

const dirs = tempDirs('bureau-electron-ipc-')
let app: BureauApp
let unbind: () => void
const invoke = (event: unknown, route: unknown, input?: unknown) =>
  fake.handlers.get(IPC_INVOKE_CHANNEL)?.(event, route, input) as Promise<{
    ok: boolean
    error?: { code: string }
  }>

beforeAll(async () => {
  app = await createApp({
    host: 'electron',
    dataDir: await dirs.make(),
    workspaceDir: await dirs.make(),
    logger: silentLogger,
  })
  unbind = bindIpc(app)
})
afterAll(async () => {
  unbind()
  await app.dispose()
  await dirs.cleanup()
})

describe('the Electron IPC transport', () => {
  it('dispatches a valid request from the app frame', async () => {
    const reply = await invoke(sender('app://bureau/index.html'), 'app.info')
    expect(reply).toMatchObject({ ok: true, value: { host: 'electron', workspaceRoot: '/' } })
  })

  it('answers invalid input with VALIDATION_FAILED and an unknown route with UNKNOWN_ROUTE', async () => {
    const bad = await invoke(sender('app://bureau/'), 'conversations.rename', { id: 'x', title: 42 })
    expect(bad).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(await invoke(sender('app://bureau/'), 'no.such.route', {})).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_ROUTE' },
    })
    expect(await invoke(sender('app://bureau/'), 42, {})).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_ROUTE' },
    })
  })

  it('refuses a subframe, a foreign page and a look-alike origin with FORBIDDEN', async () => {
    for (const event of [
      sender('app://bureau/', true),
      sender('https://evil.example/'),
      sender('app://bureau.evil/'),
      sender('file:///tmp/page.html'),
    ]) {
      expect(await invoke(event, 'app.info')).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    }
  })

  it('forwards events to the windows', () => {
    app.notices.notify({ level: 'info', message: 'hello window' })
    expect(fake.sent).toContainEqual([
      IPC_EVENT_CHANNEL,
      'app.notice',
      { level: 'info', message: 'hello window' },
    ])
  })
})

describe('the hardened window', () => {
  it('denies new windows (web links go to the system browser) and navigation away from the app', () => {
    let openHandler: ((details: { url: string }) => { action: string }) | undefined
    const listeners = new Map<string, (event: { preventDefault(): void }, url: string) => void>()
    hardenWebContents({
      setWindowOpenHandler: (handler: typeof openHandler) => {
        openHandler = handler
      },
      on: (name: string, listener: (event: { preventDefault(): void }, url: string) => void) =>
        listeners.set(name, listener),
    } as never)
    expect(openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' })
    expect(openHandler?.({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' })
    expect(fake.opened).toEqual(['https://example.com/'])

    const navigate = (url: string) => {
      let prevented = false
      listeners.get('will-navigate')?.({ preventDefault: () => (prevented = true) }, url)
      return prevented
    }
    expect(navigate('app://bureau/#/settings')).toBe(false)
    expect(navigate('https://evil.example/')).toBe(true)
    expect(navigate('file:///etc/passwd')).toBe(true)
  })

  it('grants only audio capture asked by the app', () => {
    let request:
      | ((contents: unknown, permission: string, callback: (ok: boolean) => void, details: object) => void)
      | undefined
    let check: ((contents: unknown, permission: string, origin: string) => boolean) | undefined
    restrictPermissions({
      setPermissionRequestHandler: (handler: typeof request) => {
        request = handler
      },
      setPermissionCheckHandler: (handler: typeof check) => {
        check = handler
      },
    } as never)
    const ask = (permission: string, details: object) => {
      let granted: boolean | undefined
      request?.({ getURL: () => 'app://bureau/' }, permission, (ok) => (granted = ok), details)
      return granted
    }
    expect(ask('media', { requestingUrl: 'app://bureau/', mediaTypes: ['audio'] })).toBe(true)
    expect(ask('media', { requestingUrl: 'app://bureau/', mediaTypes: ['audio', 'video'] })).toBe(false)
    expect(ask('media', { requestingUrl: 'https://evil.example/', mediaTypes: ['audio'] })).toBe(false)
    for (const permission of ['geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      expect(ask(permission, { requestingUrl: 'app://bureau/' })).toBe(false)
    }
    expect(check?.(null, 'media', 'app://bureau')).toBe(true)
    expect(check?.(null, 'media', 'https://evil.example')).toBe(false)
    expect(check?.(null, 'geolocation', 'app://bureau')).toBe(false)
  })
})
