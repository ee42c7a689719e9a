import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Page, Request } from 'playwright-core'
import { AppError } from '../../../shared/errors'
import type { Converter } from '../../convert'
import type { UrlGuard, UrlGuardOptions } from '../../tools'
import { resolveBrowserConfig } from '../config/resolveBrowserConfig'
import { connectBrowser } from '../connect/connectBrowser'
import { shortReason } from '../connect/connectErrors'
import { type ConsentWatcher, createConsentWatcher } from '../consent/consentWatcher'
import { ElementRefs } from '../elements/elementRefs'
import { guardBrowserRequests } from '../guard/browserRequestGuard'
import { createBrowserUrlGuard } from '../guard/browserUrlGuard'
import { guardOwnedTabs } from '../guard/ownedTabsGuard'
import { type Refusal, refusalNotes } from '../guard/refusals'
import type { RequestGuard } from '../guard/requestGuard'
import { createRequestVerdicts, type RequestVerdicts } from '../guard/requestVerdicts'
import { blankPage, isErrorPage, refusalOfShownPage } from '../guard/shownPage'
import { runInPage } from '../inpage/pageScript'
import { snapshotPage } from '../inpage/snapshotScript'
import { guardedGet, isPdf, pdfToMarkdown } from '../pdf/pdfDocument'
import type { RenderedDocument } from '../snapshot/pageView'
import type { BrowserConfig, BrowserConnection, BrowserEnvironment } from '../types'
import { newTab, type Tab } from './tab'

/** How long a read waits for a cookie banner to be handled, once per document. */
const CONSENT_BUDGET_MS = 2_500
const NAVIGATION_TIMEOUT_MS = 30_000
/** After DOMContentLoaded, how long navigate waits for `load` (slow images, hanging trackers). */
const LOAD_GRACE_MS = 3_000
/** How long after an action a navigation or new tab may still start. */
const ACTION_SETTLE_MS = 400

export interface BrowserSession {
  config(): Promise<BrowserConfig>
  guard(): Promise<UrlGuard>
  readonly refs: ElementRefs
  /** The active tab, opening the browser and a first tab on first use. */
  activeTab(): Promise<Tab>
  tabs(): Tab[]
  activeIndex(): number
  openTab(): Promise<Tab>
  switchTab(index: number): Promise<Tab>
  closeTab(index: number): Promise<void>
  /** Makes a tab active (e.g. the one an element lives in). */
  focus(page: Page): Promise<Tab>
  navigate(tab: Tab, url: string): Promise<void>
  /** Back or forward in the tab's history (pages restored from the back-forward cache included). */
  history(tab: Tab, direction: 'back' | 'forward'): Promise<void>
  /** Waits for the document after an action (click, key) and follows a tab it opened. */
  settleAfterAction(tab: Tab, action: () => Promise<unknown>): Promise<Tab>
  read(tab: Tab): Promise<RenderedDocument>
  /**
   * Throws FORBIDDEN (and blanks the tab) when what the tab shows is refused by the URL guard: call it
   * before anything of a page is returned. `read` does.
   */
  assertShown(tab: Tab): Promise<void>
  dispose(): Promise<void>
}

interface Attached {
  connection: BrowserConnection
  requests: RequestGuard
}

export interface BrowserSessionOptions {
  env: BrowserEnvironment
  /** The tool session's URL guard (host policy), used unless local network is allowed. */
  baseGuard: UrlGuard
  createUrlGuard: (options?: UrlGuardOptions) => UrlGuard
}

export function createBrowserSession(options: BrowserSessionOptions): BrowserSession {
  const { env } = options
  const refs = new ElementRefs()
  const consent: ConsentWatcher = createConsentWatcher(env.logger)
  const tabs: Tab[] = []
  let active = -1
  let configPromise: Promise<BrowserConfig> | undefined
  let guardPromise: Promise<UrlGuard> | undefined
  let verdictsPromise: Promise<RequestVerdicts> | undefined
  let attached: Promise<Attached> | undefined
  let disposed = false
  let ownConverter: Promise<Converter> | undefined
  const converter = (): Promise<Converter> => {
    if (env.converter) return Promise.resolve(env.converter())
    ownConverter ??= import('../../convert').then(({ createConverter }) =>
      createConverter({ cacheDir: join(env.dataDir, 'cache', 'convert'), ocr: false }),
    )
    return ownConverter
  }

  const config = () => {
    configPromise ??= resolveBrowserConfig(env)
    return configPromise
  }
  const guard = () => {
    guardPromise ??= config().then((c) =>
      createBrowserUrlGuard({
        base: options.baseGuard,
        allowLocalNetwork: c.allowLocalNetwork,
        createUrlGuard: options.createUrlGuard,
      }),
    )
    return guardPromise
  }
  const verdicts = () => {
    verdictsPromise ??= guard().then(createRequestVerdicts)
    return verdictsPromise
  }
  /** The user's browser (cdp): only Bureau's tabs are guarded. A browser Bureau launched: all of it. */
  async function guardRequests(c: BrowserConfig, connection: BrowserConnection): Promise<RequestGuard> {
    const requestVerdicts = await verdicts()
    if (connection.mode === 'cdp')
      return guardOwnedTabs({
        endpoint: c.cdpEndpoint ?? '',
        verdicts: requestVerdicts,
        onLost: () => void lose(connection),
      })
    return guardBrowserRequests(connection.browser, {
      verdicts: requestVerdicts,
      unattributed: (refusal) => tabs[active]?.refusals.push(refusal),
      bypassServiceWorkers: connection.mode === 'edge-profile',
    })
  }

  /** The guard's connection broke: Bureau's tabs are closed (unguarded, they are not used) and the next call reconnects. */
  async function lose(connection: BrowserConnection) {
    env.logger?.warn('browser: the URL guard lost its DevTools connection; closing Bureau tabs')
    attached = undefined
    await closeGuardedPages()
    await connection.close().catch(() => {})
  }

  const attach = () => {
    if (disposed) return Promise.reject(new AppError('UNAVAILABLE', 'This browser session has ended.'))
    attached ??= config().then(async (c) => {
      const connection = await connectBrowser(c)
      try {
        return { connection, requests: await guardRequests(c, connection) }
      } catch (error) {
        await connection.close().catch(() => {})
        throw new AppError(
          'UNAVAILABLE',
          `The browser's requests could not be put under the URL guard, so it is not used: ${shortReason(error)}`,
        )
      }
    })
    attached.catch(() => {
      attached = undefined
    })
    return attached
  }

  /** Lists a tab that is under the guard. */
  function track(tab: Tab): Tab {
    if (tabs.includes(tab) || tab.page.isClosed()) return tab
    tabs.push(tab)
    tab.page.once('close', () => {
      const index = tabs.indexOf(tab)
      if (index < 0) return
      tabs.splice(index, 1)
      refs.forgetPage(tab.page)
      if (active >= tabs.length) active = tabs.length - 1
      else if (index < active) active--
    })
    return tab
  }

  /**
   * A new tab whose first page the guard refused shows only Chromium's error page: it is closed, and
   * the refusal told on the tab that opened it. True when the new tab is gone.
   */
  async function closeIfRefusedAtOpen(opener: Tab, opened: Tab): Promise<boolean> {
    const page = opened.page
    await page.waitForLoadState('domcontentloaded', { timeout: NAVIGATION_TIMEOUT_MS }).catch(() => {})
    if (page.isClosed()) return true
    const refusal = opened.blockedNavigation
    if (!refusal || !isErrorPage(page.url())) return false
    opener.refusals.push({ kind: 'popup', url: page.url(), message: refusal })
    await page.close().catch(() => {})
    return true
  }

  /** Every open page Bureau put (or is putting) under the guard: its listed tabs and the ones on the way. */
  const preparing = new Map<Page, Promise<Tab>>()

  async function closeGuardedPages() {
    for (const page of [...preparing.keys()]) await page.close().catch(() => {})
  }

  /** Puts a tab under the URL guard, then lists it. Fails closed: a tab that cannot be guarded is never listed. */
  function prepare(page: Page): Promise<Tab> {
    let prepared = preparing.get(page)
    if (!prepared) {
      prepared = guardTab(page)
      preparing.set(page, prepared)
      page.once('close', () => preparing.delete(page))
    }
    return prepared
  }

  async function guardTab(page: Page): Promise<Tab> {
    const tab = newTab(page)
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return
      if (!isErrorPage(frame.url())) tab.blockedNavigation = null
      tab.pdf = null
      tab.consentSettled = false
      tab.consentNote = null
    })
    // Tabs our pages open (target=_blank, window.open) are ours too; the user's own tabs are not. The
    // request guard holds such a tab from its first request (and closes it when that is refused).
    page.on('popup', (popup) => {
      void prepare(popup).then(
        async (popupTab) => {
          if (!(await closeIfRefusedAtOpen(tab, popupTab))) active = tabs.indexOf(popupTab)
        },
        () => popup.close().catch(() => {}),
      )
    })
    const { requests } = await attach()
    await requests.own(page, (refusal: Refusal) => {
      tab.refusals.push(refusal)
      if (refusal.kind === 'navigation') tab.blockedNavigation = refusal.message
    })
    await consent.attach(page).catch(() => {})
    page.setDefaultTimeout(10_000)
    return track(tab)
  }

  async function openTab(): Promise<Tab> {
    const { connection } = await attach()
    const page = await connection.newPage()
    try {
      const tab = await prepare(page)
      active = tabs.indexOf(tab)
      return tab
    } catch (error) {
      await page.close().catch(() => {})
      throw new AppError(
        'UNAVAILABLE',
        `A new tab could not be put under the URL guard: ${shortReason(error)}`,
      )
    }
  }

  async function refuseShown(tab: Tab, refusal: string): Promise<never> {
    // Reported here, so not again as a note of a later page.
    tab.refusals = tab.refusals.filter((r) => r.kind !== 'navigation')
    tab.blockedNavigation = null
    tab.pdf = null
    await blankPage(tab.page)
    throw new AppError('FORBIDDEN', `${refusal} Nothing of that page is returned; the tab is blank now.`)
  }

  async function assertShown(tab: Tab): Promise<void> {
    const shown = await refusalOfShownPage(tab.page, await verdicts())
    if (shown) return refuseShown(tab, shown)
    // Chromium's error page after a navigation the guard stopped: the answer is the refusal, not that page.
    if (tab.blockedNavigation && isErrorPage(tab.page.url())) return refuseShown(tab, tab.blockedNavigation)
  }

  function byIndex(index: number): Tab {
    const tab = tabs[index]
    if (!tab) {
      throw new AppError(
        'NOT_FOUND',
        `There is no tab ${index}; ${tabs.length === 0 ? 'no tab is open' : `tabs are numbered 0 to ${tabs.length - 1}`}.`,
      )
    }
    return tab
  }

  async function navigate(tab: Tab, url: string): Promise<void> {
    const urlGuard = await guard()
    const checked = await urlGuard.check(url)
    tab.refusals = []
    tab.blockedNavigation = null
    let response: Awaited<ReturnType<Page['goto']>> = null
    let downloadStarted = false
    try {
      response = await tab.page.goto(checked.href, {
        waitUntil: 'domcontentloaded',
        timeout: NAVIGATION_TIMEOUT_MS,
      })
    } catch (error) {
      const reason = shortReason(error)
      if (tab.blockedNavigation) await refuseShown(tab, tab.blockedNavigation)
      // Headless Chromium downloads a PDF instead of showing it.
      if (/Download is starting|ERR_ABORTED/.test(reason)) downloadStarted = true
      else if (/Timeout/i.test(reason))
        throw new AppError(
          'TIMEOUT',
          `${checked.href} did not load within ${NAVIGATION_TIMEOUT_MS / 1000} s.`,
        )
      else throw new AppError('UNAVAILABLE', `Could not open ${checked.href}: ${reason}`)
    }
    const contentType = response?.headers()['content-type']
    if (downloadStarted || contentType?.toLowerCase().includes('application/pdf')) {
      const fetched = await guardedGet(tab.page.context(), urlGuard, checked.href)
      const bytes = await fetched.response.body()
      if (!isPdf(bytes, fetched.response.headers()['content-type']))
        throw new AppError(
          'UNSUPPORTED',
          `${checked.href} is a file download, not a page; use download with its url.`,
        )
      const converted = await pdfToMarkdown(await converter(), fetched.url, bytes)
      tab.pdf = {
        url: fetched.url,
        title: converted.title,
        markdown: converted.markdown,
        notes: ['A PDF, converted to Markdown.'],
      }
      return
    }
    await tab.page.waitForLoadState('load', { timeout: LOAD_GRACE_MS }).catch(() => {})
  }

  async function settleAfterAction(tab: Tab, action: () => Promise<unknown>): Promise<Tab> {
    const page = tab.page
    // An action may start a navigation or open a tab a moment after it returns: watch briefly for either.
    let onRequest: ((request: Request) => void) | undefined
    let onPopup: ((popup: Page) => void) | undefined
    let committed: Promise<unknown> = Promise.resolve()
    const started = new Promise<'navigation' | Page | null>((resolve) => {
      onRequest = (request) => {
        if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return
        committed = page
          .waitForEvent('framenavigated', {
            predicate: (f) => f === page.mainFrame(),
            timeout: NAVIGATION_TIMEOUT_MS,
          })
          .catch(() => {})
        resolve('navigation')
      }
      onPopup = (popup) => resolve(popup)
      page.on('request', onRequest)
      page.on('popup', onPopup)
    })
    try {
      await action()
      const outcome = await Promise.race([started, sleep(ACTION_SETTLE_MS).then(() => null)])
      if (outcome && outcome !== 'navigation') {
        const opened = await prepare(outcome).catch(() => null)
        if (!opened || (await closeIfRefusedAtOpen(tab, opened))) return tab
        active = tabs.indexOf(opened)
        return opened
      }
      if (outcome === 'navigation') {
        await committed
        await page.waitForLoadState('domcontentloaded', { timeout: NAVIGATION_TIMEOUT_MS }).catch(() => {})
        await page.waitForLoadState('load', { timeout: LOAD_GRACE_MS }).catch(() => {})
      }
      return tab
    } finally {
      if (onRequest) page.off('request', onRequest)
      if (onPopup) page.off('popup', onPopup)
    }
  }

  async function read(tab: Tab): Promise<RenderedDocument> {
    await assertShown(tab)
    if (tab.pdf) return tab.pdf
    const page = tab.page
    const shownUrl = page.url()
    if (!tab.consentSettled) {
      const outcome = await consent.settle(page, CONSENT_BUDGET_MS)
      tab.consentSettled = true
      if (outcome?.cmp)
        tab.consentNote = `Cookie banner (${outcome.cmp}): ${outcome.optedOut ? 'dismissed, non-essential cookies refused' : 'found, the opt-out did not complete'}.`
    }
    const snapshot = () =>
      runInPage(page, snapshotPage, {
        nextId: refs.nextId,
        maxOptions: 25,
        maxHref: 160,
        budgetMs: 5_000,
        includePaths: false,
      })
    let result: Awaited<ReturnType<typeof snapshotPage>>
    try {
      result = await snapshot().catch(async (error: unknown) => {
        // The page navigated while it was read (a late redirect or script): read the new document.
        if (!/context was destroyed|navigat/i.test(shortReason(error))) throw error
        await page.waitForLoadState('domcontentloaded', { timeout: NAVIGATION_TIMEOUT_MS }).catch(() => {})
        return snapshot()
      })
    } catch (error) {
      throw new AppError('UNAVAILABLE', `The page could not be read: ${shortReason(error)}`)
    }
    // The page may have moved on while it was read.
    if (page.url() !== shownUrl) await assertShown(tab)
    refs.remember(page, result.elements, result.nextId)
    const notes: string[] = []
    if (tab.consentNote) notes.push(tab.consentNote)
    if (result.crossOriginFrames > 0)
      notes.push(`${result.crossOriginFrames} cross-origin frame(s) are named but not read.`)
    notes.push(...refusalNotes(tab.refusals.splice(0)))
    return {
      url: result.url,
      title: result.title,
      markdown: result.markdown || '(The page shows no text.)',
      notes,
    }
  }

  return {
    config,
    guard,
    refs,
    async activeTab() {
      const current = tabs[active]
      if (current && !current.page.isClosed()) return current
      return openTab()
    },
    tabs: () => [...tabs],
    activeIndex: () => active,
    openTab,
    async switchTab(index) {
      const tab = byIndex(index)
      active = index
      await tab.page.bringToFront().catch(() => {})
      return tab
    },
    async closeTab(index) {
      const tab = byIndex(index)
      await tab.page.close()
    },
    async focus(page) {
      const tab = tabs.find((t) => t.page === page)
      if (!tab) throw new AppError('NOT_FOUND', 'The tab of that element is closed; read the page again.')
      active = tabs.indexOf(tab)
      return tab
    },
    navigate,
    async history(tab, direction) {
      const options = { waitUntil: 'commit' as const, timeout: NAVIGATION_TIMEOUT_MS }
      const response = direction === 'back' ? tab.page.goBack(options) : tab.page.goForward(options)
      await response.catch(() => null)
      // A page restored from the back-forward cache fires no load events: ask the document instead.
      await tab.page
        .waitForFunction("document.readyState !== 'loading'", undefined, { timeout: LOAD_GRACE_MS })
        .catch(() => {})
    },
    settleAfterAction,
    read,
    assertShown,
    async dispose() {
      disposed = true
      const open = attached
      attached = undefined
      const live = open ? await open.catch(() => null) : null
      // Tabs Bureau's pages opened are Bureau's too; the connection closes those it opened itself.
      await closeGuardedPages()
      await live?.connection.close()
      await live?.requests.close()
      if (ownConverter) await (await ownConverter).dispose()
    },
  }
}
