import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, vi } from 'vitest'
import type { DebuggableBrowser } from '../../../src/main/browser/bureauProfile/startDebuggableBrowser'
import type { ToolResult } from '../../../src/main/tools'
import { describeNeeding } from '../../support/requirements'
import { currentTier, itWhen, type Tier } from '../../support/tier'
import { type FixtureServer, type Handler, html, startFixtureServer } from './support/fixtureServer'
import { startGuardedHarness } from './support/guardedHarness'
import { find, type Harness, type PageResult } from './support/harness'
import { startTempCdpChromium } from './support/tempCdpChromium'

/** The redirect guard's tests; `tier` picks which of them this file registers. */
function redirectGuardSuite(tier: Tier): void {
  // Two loopback servers: "public" is allowed by the test's URL guard (by port), "private" is refused as
  // loopback and serves a secret that must never reach a tool result.
  const SECRET = 'PRIVATE-SECRET-4b1d9e'
  const page = (title: string, body: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`

  let privateSite: FixtureServer
  let publicSite: FixtureServer
  let cdpChromium: DebuggableBrowser
  /** Paths the private server was asked for (the guard should stop requests before they are sent). */
  const privateHits: string[] = []
  /** Every URL the test guard was asked about. */
  const checked: string[] = []

  const priv = (path: string) => privateSite.url(path)

  function recorded(handler: Handler): Handler {
    return (req, res, url) => {
      privateHits.push(`${req.method} ${url.pathname}${url.search}`)
      return handler(req, res, url)
    }
  }

  function redirect(status: number, to: () => string): Handler {
    return (_req, res) => {
      res.writeHead(status, { location: to() }).end()
    }
  }

  async function startSites() {
    const secretPage: Handler = (_req, res) => html(res, page('Private', `<h1>Private</h1><p>${SECRET}</p>`))
    privateSite = await startFixtureServer({
      '/secret': recorded(secretPage),
      '/frame': recorded(secretPage),
      '/user-own': recorded(secretPage),
      '/pixel.png': recorded((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' }).end()
      }),
      '/api': recorded((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end(SECRET)
      }),
    })
    publicSite = await startFixtureServer({
      '/r302': redirect(302, () => publicSite.url('/r302b')),
      '/r302b': redirect(302, () => priv('/secret')),
      '/r301': redirect(301, () => publicSite.url('/r307')),
      '/r307': redirect(307, () => priv('/secret')),
      '/r-ten': redirect(302, () => 'http://10.255.0.1:9/secret'),
      '/ok-chain': redirect(302, () => publicSite.url('/ok-hop')),
      '/ok-hop': redirect(307, () => publicSite.url('/landing')),
      '/landing': page('Landing', '<h1>Landing page</h1><p>Allowed all the way.</p>'),
      '/meta': page(
        'Meta',
        `<meta http-equiv="refresh" content="0;url=${priv('/secret')}"><p>Refreshing soon.</p>`,
      ),
      '/js-later': page(
        'Later',
        `<h1>Public page</h1><script>setTimeout(() => { location.href = ${JSON.stringify(priv('/secret'))} }, 300)</script>`,
      ),
      '/link': page('Link', `<h1>Links</h1><a href="${priv('/secret')}">Private link</a>`),
      '/form': page(
        'Form',
        `<h1>Form</h1><form method="post" action="${priv('/secret')}"><input name="q" value="x"><button>Send it</button></form>`,
      ),
      '/popup': page(
        'Popup',
        `<h1>Opener</h1><button onclick='window.open(${JSON.stringify(priv('/secret'))})'>Open popup</button><a href="${priv('/secret')}" target="_blank">New tab link</a>`,
      ),
      '/public-popup': page(
        'Public popup',
        `<h1>Opener</h1><a href="/r302" target="_blank">Redirecting new tab</a>`,
      ),
      '/subresources': page(
        'Subresources',
        `<h1>Subresources page</h1><p>Public text stays readable.</p>
       <iframe src="${priv('/frame')}"></iframe><img src="${priv('/pixel.png')}" alt="pixel">
       <p id="out">waiting</p>
       <script>fetch(${JSON.stringify(priv('/api'))}).then((r) => r.text()).then((t) => { out.textContent = 'fetched ' + t }, () => { out.textContent = 'fetch failed' })</script>`,
      ),
      '/sw.js': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(
          `self.addEventListener('install', () => self.skipWaiting())
         self.addEventListener('activate', (e) => e.waitUntil(clients.claim()))
         self.addEventListener('fetch', (e) => {
           if (!e.request.url.endsWith('/sw-page')) return
           e.respondWith(fetch(${JSON.stringify(priv('/api'))}).then((r) => r.text()).then((t) =>
             new Response('<p>answered by the worker: ' + t + '</p>', { headers: { 'content-type': 'text/html' } })))
         })`,
        )
      },
      '/sw-register': page(
        'Register',
        `<script>navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then(() => { document.title = 'registered' })</script>`,
      ),
      '/sw-page': page('From the network', '<p>answered by the network</p>'),
      '/sw-talk': page(
        'Talk',
        `<p id="out">waiting</p><script>out.textContent = 'serviceWorker' in navigator ? 'service workers reachable' : 'no service workers here'</script>`,
      ),
      '/workers': page(
        'Workers',
        `<h1>Workers page</h1><p id="out">waiting</p>
       <script>
         const source = 'onconnect = (e) => { const port = e.ports[0]; fetch(' + ${JSON.stringify(JSON.stringify(priv('/api')))} + ').then((r) => r.text()).then((t) => port.postMessage("worker got " + t), () => port.postMessage("worker fetch failed")) }'
         try {
           const realm = document.body.appendChild(document.createElement('iframe')).contentWindow
           const worker = new realm.SharedWorker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })))
           worker.port.onmessage = (e) => { out.textContent = e.data }
         } catch (e) { out.textContent = 'shared worker refused' }
       </script>`,
      ),
    })
  }

  beforeAll(async () => {
    await startSites()
    cdpChromium = await startTempCdpChromium('bureau-guard-cdp-')
  }, 60_000)
  afterAll(async () => {
    await cdpChromium?.stop()
    await publicSite?.close()
    await privateSite?.close()
  })

  describeNeeding(['chromium'], 'redirect guard in Chromium', () => {
    describe.each(tier === 'fast' ? (['bundled-chromium', 'cdp'] as const) : (['cdp'] as const))(
      'URL guard on redirects and page requests (%s)',
      (mode) => {
        // The fast tier runs the common tests in Bureau's own browser and the ones only the user's browser has;
        // the soak tier runs the common tests again in the user's browser (CDP).
        const itCommon = itWhen((tier === 'fast') === (mode === 'bundled-chromium'))
        const itOwn = itWhen(tier === 'fast')
        let h: Harness
        beforeAll(async () => {
          h = await startGuardedHarness(mode, publicSite.origin, cdpChromium.endpoint, checked)
        }, 60_000)
        afterAll(async () => {
          await h?.close()
        })

        /** No tool result carries the secret, and the private server was never asked for it. */
        function expectNothingPrivate(...results: unknown[]) {
          for (const result of results) expect(JSON.stringify(result)).not.toContain(SECRET)
          expect(privateHits).toEqual([])
        }

        function expectRefusal(result: ToolResult, path = '/secret') {
          expect(result.ok).toBe(false)
          if (result.ok) return
          expect(result.code).toBe('FORBIDDEN')
          expect(result.error).toContain(`Refused ${priv(path)}`)
          expect(result.error).toContain('a loopback address')
        }

        async function activeTab() {
          const listed = await h.ok<{ tabs: Array<{ url: string; active: boolean }> }>('web_tabs', {
            action: 'list',
          })
          return { tabs: listed.tabs, active: listed.tabs.find((t) => t.active) }
        }

        async function expectBlankTab() {
          const { active } = await activeTab()
          expect(active?.url).toBe('about:blank')
          const read = await h.call('web_read_page')
          const shot = await h.call('web_screenshot')
          expect(shot.ok).toBe(true)
          expectNothingPrivate(read, shot)
        }

        itCommon.each([
          ['302 → 302', '/r302'],
          ['301 → 307', '/r301'],
        ])('refuses a %s redirect chain that ends on the private server', async (_name, path) => {
          privateHits.length = 0
          const result = await h.call('web_navigate', { url: publicSite.url(path) })
          expectRefusal(result)
          expectNothingPrivate(result)
          await expectBlankTab()
        })

        itCommon.each([
          ['302 → 302', '/r302'],
          ['301 → 307', '/r301'],
        ])(
          'web_download by url refuses a %s redirect chain to the private server, like the browser',
          async (_name, path) => {
            privateHits.length = 0
            const result = await h.call('web_download', { url: publicSite.url(path) })
            expectRefusal(result)
            expectNothingPrivate(result)
          },
        )

        itCommon(
          'web_download by url refuses a redirect to a private address (10.x) before connecting',
          async () => {
            privateHits.length = 0
            const result = await h.call('web_download', { url: publicSite.url('/r-ten') })
            expect(result.ok).toBe(false)
            if (result.ok) return
            expect(result.code).toBe('FORBIDDEN')
            expect(result.error).toContain('Refused http://10.255.0.1:9/secret')
            expect(result.error).toContain('10.255.0.1 is a private-network address')
          },
        )

        itCommon(
          'navigates at once after a refusal, again and again (no navigation interrupted by the blanking)',
          async () => {
            for (let round = 0; round < 3; round++) {
              privateHits.length = 0
              expectRefusal(await h.call('web_navigate', { url: publicSite.url('/r302') }))
              expectRefusal(await h.call('web_navigate', { url: priv('/secret') }))
              const view = await h.ok<PageResult>('web_navigate', { url: publicSite.url('/landing') })
              expect(view.content).toContain('Landing page')
              expectNothingPrivate(view)
            }
          },
        )

        itCommon('follows a redirect chain that stays on allowed pages', async () => {
          privateHits.length = 0
          const view = await h.ok<PageResult>('web_navigate', { url: publicSite.url('/ok-chain') })
          expect(view.url).toBe(publicSite.url('/landing'))
          expect(view.content).toContain('Landing page')
          expect(view.content).not.toContain('Blocked')
        })

        itCommon(
          'refuses a meta refresh and a script that moves the page to the private server',
          async () => {
            for (const path of ['/meta', '/js-later']) {
              privateHits.length = 0
              checked.length = 0
              const opened = await h.call('web_navigate', { url: publicSite.url(path) })
              // The page moves when it likes (a busy machine delays the refresh): once the guard was asked
              // about the private page, waiting for it ends in the refusal.
              await vi.waitUntil(() => checked.includes(priv('/secret')), { timeout: 20_000, interval: 20 })
              // Waiting for the text ends in the refusal as soon as the guard stopped the move (not after its
              // timeout); a refusal the navigation already reported leaves nothing to wait for.
              const waited = opened.ok
                ? await h.call('web_wait_for', { text: 'Private', timeout: 10 })
                : opened
              const refusal = [opened, waited].find((r) => !r.ok && r.code === 'FORBIDDEN')
              expect(refusal, path).toBeDefined()
              if (refusal) expectRefusal(refusal)
              expectNothingPrivate(opened, waited)
              await expectBlankTab()
            }
          },
        )

        itCommon('refuses a link and a form post to the private server', async () => {
          for (const [path, text] of [
            ['/link', 'Private link'],
            ['/form', 'Send it'],
          ] as const) {
            privateHits.length = 0
            const view = await h.ok<PageResult>('web_navigate', { url: publicSite.url(path) })
            const clicked = await h.call('web_click', { id: find(view.content, (m) => m.text === text).id })
            expectRefusal(clicked)
            expectNothingPrivate(view, clicked)
            await expectBlankTab()
          }
        })

        itCommon(
          'closes a new tab whose first page is refused (window.open, target=_blank, a redirect)',
          async () => {
            for (const [path, text] of [
              ['/popup', 'Open popup'],
              ['/popup', 'New tab link'],
              ['/public-popup', 'Redirecting new tab'],
            ] as const) {
              privateHits.length = 0
              const view = await h.ok<PageResult>('web_navigate', { url: publicSite.url(path) })
              const clicked = await h.ok<PageResult>('web_click', {
                id: find(view.content, (m) => m.text === text).id,
              })
              expect(clicked.url, text).toBe(publicSite.url(path))
              expect(clicked.content).toContain('Opener')
              expect(clicked.content).toContain(`Blocked: Refused ${priv('/secret')}`)
              expect(clicked.content).toContain('The tab the page opened was closed.')
              const { tabs, active } = await activeTab()
              expect(tabs).toHaveLength(1)
              expect(active?.url).toBe(publicSite.url(path))
              expectNothingPrivate(view, clicked)
            }
          },
        )

        itCommon(
          'blocks frames, images and fetches to the private server and still reads the page',
          async () => {
            privateHits.length = 0
            const view = await h.ok<PageResult>('web_navigate', { url: publicSite.url('/subresources') })
            const waited = await h.call('web_wait_for', { text: 'fetch failed', timeout: 5 })
            expect(waited.ok).toBe(true)
            const read = await h.ok<PageResult>('web_read_page')
            const content = `${view.content}\n${read.content}`
            expect(read.content).toContain('Public text stays readable.')
            expect(read.content).toContain('fetch failed')
            expect(content).toMatch(/Blocked \d+ request\(s\) of this page/)
            expect(content).toContain(privateSite.origin)
            expect(content).toContain('a loopback address')
            const shot = await h.call('web_screenshot')
            expect(shot.ok).toBe(true)
            expectNothingPrivate(view, waited, read, shot)
            expect((await activeTab()).active?.url).toBe(publicSite.url('/subresources'))
          },
        )

        itCommon(
          "keeps a page's shared worker (started from a fresh frame's realm) away from the private server",
          async () => {
            privateHits.length = 0
            await h.ok<PageResult>('web_navigate', { url: publicSite.url('/workers') })
            // Bureau's own browser checks the worker's requests; in the user's browser its pages may not start one.
            const outcome = mode === 'cdp' ? 'shared worker refused' : 'worker fetch failed'
            const waited = await h.call('web_wait_for', { text: outcome, timeout: 5 })
            expect(waited.ok).toBe(true)
            const read = await h.ok<PageResult>('web_read_page')
            expect(read.content).toContain(outcome)
            expectNothingPrivate(waited, read)
          },
        )

        if (mode === 'cdp') {
          itOwn("leaves the user's own tabs alone: they reach the private server, unchecked", async () => {
            privateHits.length = 0
            checked.length = 0
            // Bureau's session is attached (its guard is live) while the user browses in a tab of their own.
            await h.ok('web_navigate', { url: publicSite.url('/landing') })
            const user = await chromium.connectOverCDP(cdpChromium.endpoint)
            try {
              const tab = await user.contexts()[0]?.newPage()
              if (!tab) expect.fail('no default context')
              await tab.goto(priv('/user-own?direct'))
              expect(await tab.textContent('body')).toContain(SECRET)
              await tab.goto(publicSite.url('/r302'))
              expect(tab.url()).toBe(priv('/secret'))
              expect(await tab.textContent('body')).toContain(SECRET)
              await tab.close()
            } finally {
              await user.close()
            }
            expect(privateHits).toEqual(['GET /user-own?direct', 'GET /secret'])
            // Bureau's guard never looked at the user's requests.
            expect(checked.filter((url) => url.includes('/r302') || url.includes('/user-own'))).toEqual([])
            privateHits.length = 0
          })

          itOwn("does not let a service worker of the user's profile answer Bureau's tabs", async () => {
            const user = await chromium.connectOverCDP(cdpChromium.endpoint)
            try {
              const tab = await user.contexts()[0]?.newPage()
              if (!tab) expect.fail('no default context')
              await tab.goto(publicSite.url('/sw-register'))
              await tab.waitForFunction(() => document.title === 'registered')
              await tab.goto(publicSite.url('/sw-page'))
              // In the user's tab the worker answers (and reaches the private server).
              expect(await tab.textContent('body')).toContain(`answered by the worker: ${SECRET}`)
              privateHits.length = 0
              const view = await h.ok<PageResult>('web_navigate', { url: publicSite.url('/sw-page') })
              expect(view.content).toContain('answered by the network')
              // Nor can its pages talk to the worker (it would fetch for them, outside the guard).
              const talk = await h.ok<PageResult>('web_navigate', { url: publicSite.url('/sw-talk') })
              expect(talk.content).toContain('no service workers here')
              expectNothingPrivate(view, talk)
              await tab.evaluate(async () => {
                for (const registration of await navigator.serviceWorker.getRegistrations())
                  await registration.unregister()
              })
              await tab.close()
            } finally {
              await user.close()
            }
          })
        }
      },
    )
  })
}

redirectGuardSuite(currentTier())
