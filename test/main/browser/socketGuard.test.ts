import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { WebSocketServer } from 'ws'
import type { DebuggableBrowser } from '../../../src/main/browser/bureauProfile/startDebuggableBrowser'
import { describeNeeding } from '../../support/requirements'
import { currentTier, describeWhen, itWhen, type Tier } from '../../support/tier'
import { startGuardedHarness } from './support/guardedHarness'
import type { Harness, PageResult } from './support/harness'
import { startTempCdpChromium } from './support/tempCdpChromium'

/** The socket guard's tests; `tier` picks which of them this file registers. */
function socketGuardSuite(tier: Tier): void {
  // Two loopback servers, each with a WebSocket endpoint: "public" is allowed by the test's URL guard (by
  // port), "private" is refused as loopback and greets every socket with a secret that must never reach a
  // tool result.
  const SECRET = 'WS-PRIVATE-SECRET-7c2a41'

  interface Site {
    origin: string
    port: number
    /** WebSocket connections the site accepted. */
    connections: number
    close(): Promise<void>
  }

  async function startSite(pages: Record<string, () => string>, greeting: string): Promise<Site> {
    const server: Server = createServer((req, res) => {
      const page = pages[new URL(req.url ?? '/', 'http://127.0.0.1').pathname]
      if (!page) return void res.writeHead(404).end('not found')
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page())
    })
    const sockets = new WebSocketServer({ server })
    const site: Site = {
      origin: '',
      port: 0,
      connections: 0,
      async close() {
        for (const client of sockets.clients) client.terminate()
        sockets.close()
        server.closeAllConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
      },
    }
    sockets.on('connection', (socket) => {
      site.connections++
      socket.send(greeting)
      socket.on('message', (data) => socket.send(`echo ${String(data)}`))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    site.port = (server.address() as AddressInfo).port
    site.origin = `http://127.0.0.1:${site.port}`
    return site
  }

  let privateSite: Site
  let publicSite: Site
  let cdpChromium: DebuggableBrowser

  const privateSocket = () => `ws://127.0.0.1:${privateSite.port}/`
  const page = (title: string, body: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`

  /** A page that opens a WebSocket (made by `open`, an expression) and writes what happens into #out. */
  const socketPage = (title: string, open: string) =>
    page(
      title,
      `<h1>${title}</h1><p id="out">waiting</p><script>
      const out = document.getElementById('out')
      const log = (text) => { out.textContent = out.textContent === 'waiting' ? text : out.textContent + ' | ' + text }
      try {
        const socket = ${open}
        try { socket.send('too early') } catch (e) { log('early send: ' + e.name) }
        socket.onopen = () => { log('open'); socket.send('ping') }
        socket.onmessage = (e) => log('got ' + e.data)
        socket.onerror = () => log('socket error')
        socket.onclose = (e) => log('closed ' + e.code)
      } catch (e) { log('constructor threw ' + e.name) }
    </script>`,
    )

  /** Worker code: a WebSocket to the private server, what happens posted back. */
  const WORKER_SOCKET = `const socket = new WebSocket(self.name); socket.onopen = () => postMessage('open'); socket.onmessage = (e) => postMessage('got ' + e.data); socket.onerror = () => postMessage('socket error'); socket.onclose = (e) => postMessage('closed ' + e.code)`

  const workerPage = (title: string, make: string, listen: string) =>
    page(
      title,
      `<h1>${title}</h1><p id="out">waiting</p><script>
      const out = document.getElementById('out')
      const log = (text) => { out.textContent = out.textContent === 'waiting' ? text : out.textContent + ' | ' + text }
      const code = ${JSON.stringify(WORKER_SOCKET)}.replace('self.name', ${JSON.stringify(JSON.stringify(privateSocket()))})
      const source = URL.createObjectURL(new Blob([code]))
      try {
        const worker = ${make}
        ${listen} = (e) => log(e.data)
      } catch (e) { log('constructor threw ' + e.name) }
    </script>`,
    )

  const publicPages: Record<string, () => string> = {
    '/private': () => socketPage('Private socket', `new WebSocket(${JSON.stringify(privateSocket())})`),
    '/public': () => socketPage('Public socket', 'new WebSocket(location.origin.replace("http", "ws"))'),
    '/frame-realm': () =>
      socketPage(
        'Frame realm',
        `new (document.body.appendChild(document.createElement('iframe')).contentWindow.WebSocket)(${JSON.stringify(privateSocket())})`,
      ),
    '/popup-realm': () =>
      socketPage('Popup realm', `new (window.open('').WebSocket)(${JSON.stringify(privateSocket())})`),
    // A socket from a worker: `make` builds the worker (its source is a blob); it reports over postMessage.
    '/worker': () => workerPage('Dedicated worker', 'new Worker(source)', 'worker.onmessage'),
    '/nested-worker': () =>
      workerPage(
        'Nested worker',
        `new Worker(URL.createObjectURL(new Blob(['const inner = new Worker(' + JSON.stringify(source) + '); inner.onmessage = (e) => postMessage(e.data)'])))`,
        'worker.onmessage',
      ),
    '/shared-worker': () =>
      workerPage(
        'Shared worker',
        `new SharedWorker(URL.createObjectURL(new Blob(['onconnect = (c) => { const port = c.ports[0]; ' + code.replaceAll('postMessage', 'port.postMessage') + ' }'])))`,
        'worker.port.onmessage',
      ),
    '/rtc': () =>
      page(
        'RTC',
        `<p id="out">waiting</p><script>
        document.getElementById('out').textContent = 'RTCPeerConnection is ' + typeof RTCPeerConnection + ', webkitRTCPeerConnection is ' + typeof webkitRTCPeerConnection
      </script>`,
      ),
  }

  beforeAll(async () => {
    privateSite = await startSite({}, SECRET)
    publicSite = await startSite(publicPages, 'hello from the public socket')
    cdpChromium = await startTempCdpChromium('bureau-socket-cdp-')
  }, 60_000)
  afterAll(async () => {
    await cdpChromium?.stop()
    await publicSite?.close()
    await privateSite?.close()
  })

  describeNeeding(['chromium'], 'socket guard in Chromium', () => {
    const itOwn = itWhen(tier === 'fast')
    // edge-profile: Bureau launches the user's own browser on their profile (here Chromium on a fresh profile
    // folder). Like bundled-chromium it goes through the guard proxy, so a worker's socket is refused there too.
    describeWhen(tier === 'fast')('URL guard on WebSockets from workers (edge-profile)', () => {
      let h: Harness
      beforeAll(async () => {
        h = await startGuardedHarness('edge-profile', publicSite.origin, cdpChromium.endpoint)
      }, 60_000)
      afterAll(async () => {
        await h?.close()
      })

      itOwn.each([
        ['a dedicated worker', '/worker'],
        ['a worker started by a worker', '/nested-worker'],
        ['the page itself', '/private'],
      ])('refuses a WebSocket to the private server from %s', async (_name, path) => {
        privateSite.connections = 0
        const view = await h.ok<PageResult>('web_navigate', { url: `${publicSite.origin}${path}` })
        const waited = await h.call('web_wait_for', { text: 'closed 1006', timeout: 5 })
        const read = await h.ok<PageResult>('web_read_page')
        expect(waited.ok).toBe(true)
        expect(read.content).toContain('socket error | closed 1006')
        expect(`${view.content}\n${read.content}`).toMatch(
          new RegExp(`Refused (a WebSocket to )?(http|ws)://127\\.0\\.0\\.1:${privateSite.port}/`),
        )
        for (const result of [view, waited, read]) expect(JSON.stringify(result)).not.toContain(SECRET)
        expect(privateSite.connections).toBe(0)
      })

      itOwn('lets a WebSocket to an allowed server connect through the proxy', async () => {
        publicSite.connections = 0
        await h.ok<PageResult>('web_navigate', { url: `${publicSite.origin}/public` })
        const waited = await h.call('web_wait_for', { text: 'got echo ping', timeout: 5 })
        const read = await h.ok<PageResult>('web_read_page')
        expect(waited.ok).toBe(true)
        expect(read.content).toContain('open | got hello from the public socket | got echo ping')
        expect(publicSite.connections).toBe(1)
      })
    })

    describe.each(tier === 'fast' ? (['bundled-chromium', 'cdp'] as const) : (['cdp'] as const))(
      'URL guard on WebSockets and WebRTC (%s)',
      (mode) => {
        // The fast tier runs the common tests in Bureau's own browser and the ones only the user's browser has;
        // the soak tier runs the common tests again in the user's browser (CDP).
        const itCommon = itWhen((tier === 'fast') === (mode === 'bundled-chromium'))
        let h: Harness
        beforeAll(async () => {
          h = await startGuardedHarness(mode, publicSite.origin, cdpChromium.endpoint)
        }, 60_000)
        afterAll(async () => {
          await h?.close()
        })

        async function tabCount() {
          return (await h.ok<{ tabs: unknown[] }>('web_tabs', { action: 'list' })).tabs.length
        }

        async function readAfter(path: string, outcome: string) {
          const view = await h.ok<PageResult>('web_navigate', { url: `${publicSite.origin}${path}` })
          const waited = await h.call('web_wait_for', { text: outcome, timeout: 5 })
          const read = await h.ok<PageResult>('web_read_page')
          return { view, waited, read }
        }

        itCommon.each([
          ['the page itself', '/private'],
          ["a fresh frame's realm", '/frame-realm'],
        ])('refuses a WebSocket to the private server from %s', async (_name, path) => {
          privateSite.connections = 0
          const { view, waited, read } = await readAfter(path, 'closed 1006')
          expect(waited.ok).toBe(true)
          // Like a real socket: CONNECTING at first (send throws), then error and close 1006.
          expect(read.content).toContain('early send: InvalidStateError | socket error | closed 1006')
          const content = `${view.content}\n${read.content}`
          expect(content).toMatch(/Blocked \d+ request\(s\) of this page/)
          expect(content).toContain(
            `Refused a WebSocket to ${privateSocket()}: 127.0.0.1 is a loopback address`,
          )
          for (const result of [view, waited, read]) expect(JSON.stringify(result)).not.toContain(SECRET)
          expect(privateSite.connections).toBe(0)
        })

        itCommon.each([
          ['a dedicated worker', '/worker'],
          ['a worker started by a worker', '/nested-worker'],
          ['a shared worker', '/shared-worker'],
        ])('refuses a WebSocket to the private server from %s', async (_name, path) => {
          privateSite.connections = 0
          // Bureau's browser refuses the connection itself; the user's browser gives Bureau's pages no workers.
          const outcome = mode === 'cdp' ? 'constructor threw SecurityError' : 'socket error | closed 1006'
          const { view, waited, read } = await readAfter(path, outcome)
          expect(waited.ok).toBe(true)
          expect(read.content).toContain(outcome)
          if (mode === 'bundled-chromium')
            expect(`${view.content}\n${read.content}`).toContain(
              `Refused http://127.0.0.1:${privateSite.port}/`,
            )
          for (const result of [view, waited, read]) expect(JSON.stringify(result)).not.toContain(SECRET)
          expect(privateSite.connections).toBe(0)
        })

        itCommon('lets a WebSocket to an allowed server connect, send and receive', async () => {
          publicSite.connections = 0
          const { waited, read } = await readAfter('/public', 'got echo ping')
          expect(waited.ok).toBe(true)
          expect(read.content).toContain(
            'early send: InvalidStateError | open | got hello from the public socket | got echo ping',
          )
          expect(read.content).not.toContain('Blocked')
          expect(publicSite.connections).toBe(1)
        })

        itCommon('removes WebRTC from the pages Bureau drives', async () => {
          const { read } = await readAfter('/rtc', 'RTCPeerConnection is')
          expect(read.content).toContain(
            'RTCPeerConnection is undefined, webkitRTCPeerConnection is undefined',
          )
        })

        itCommon(
          "keeps a popup's realm (window.open from the page) away from the private server",
          async () => {
            privateSite.connections = 0
            const view = await h.ok<PageResult>('web_navigate', { url: `${publicSite.origin}/popup-realm` })
            // The window the page opened becomes Bureau's active tab a moment later: read the opener.
            await expect.poll(tabCount).toBe(mode === 'cdp' ? 1 : 2)
            await h.ok('web_tabs', { action: 'switch', index: 0 })
            const waited = await h.call('web_wait_for', { text: 'closed 1006', timeout: 3 })
            const read = await h.ok<PageResult>('web_read_page')
            // Bureau's browser wraps the new window's WebSocket too; the user's browser gives the page no window.
            const outcome = mode === 'cdp' ? 'constructor threw TypeError' : 'socket error | closed 1006'
            expect(read.content).toContain(outcome)
            for (const result of [view, waited, read]) expect(JSON.stringify(result)).not.toContain(SECRET)
            expect(privateSite.connections).toBe(0)
            // Closed for the next tests.
            for (let index = (await tabCount()) - 1; index > 0; index--)
              await h.ok('web_tabs', { action: 'close', index })
          },
        )

        if (mode === 'cdp') {
          itOwn("leaves the user's own tabs alone: their WebSockets and WebRTC work unchecked", async () => {
            privateSite.connections = 0
            // Bureau's session is attached (its guard is live) while the user browses in a tab of their own.
            await h.ok('web_navigate', { url: `${publicSite.origin}/rtc` })
            const user = await chromium.connectOverCDP(cdpChromium.endpoint)
            try {
              const tab = await user.contexts()[0]?.newPage()
              if (!tab) expect.fail('no default context')
              await tab.goto(`${publicSite.origin}/private`)
              await tab.waitForFunction(
                (secret) => document.getElementById('out')?.textContent?.includes(secret),
                SECRET,
              )
              await tab.goto(`${publicSite.origin}/rtc`)
              expect(await tab.textContent('#out')).toBe(
                'RTCPeerConnection is function, webkitRTCPeerConnection is function',
              )
              await tab.close()
            } finally {
              await user.close()
            }
            expect(privateSite.connections).toBe(1)
          })
        }
      },
    )
  })
}

socketGuardSuite(currentTier())
