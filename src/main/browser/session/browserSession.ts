import type { Page } from 'playwright-core'
import { AppError } from '../../../shared/errors'
import type { UrlGuard } from '../../tools'
import { shortReason } from '../connect/connectErrors'
import { createConsentWatcher } from '../consent/consentWatcher'
import { ElementRefs } from '../elements/elementRefs'
import type { RenderedDocument } from '../snapshot/pageView'
import type { BrowserConfig } from '../types'
import { historyStep, navigateTab } from './navigateTab'
import { readTab } from './readTab'
import { SessionConnection } from './sessionConnection'
import { SessionConverter } from './sessionConverter'
import { createSessionPolicy, type SessionPolicyOptions } from './sessionPolicy'
import { settleAfterAction } from './settleAfterAction'
import { assertShown } from './shownGuard'
import type { Tab } from './tab'
import { TabGuard } from './tabGuard'
import { TabList } from './tabList'

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
  /**
   * Waits for the document after an action (click, key) and follows a tab it opened; `opensTab`: the
   * action is known to open one (a link with a target), so the wait for it is not the short settle time.
   */
  settleAfterAction(tab: Tab, action: () => Promise<unknown>, opensTab?: boolean): Promise<Tab>
  read(tab: Tab): Promise<RenderedDocument>
  /**
   * Throws FORBIDDEN (and blanks the tab) when what the tab shows is refused by the URL guard: call it
   * before anything of a page is returned. `read` does.
   */
  assertShown(tab: Tab): Promise<void>
  dispose(): Promise<void>
}

export type BrowserSessionOptions = SessionPolicyOptions

/**
 * One tool session's browser: wires the parts together (settings and guard, connection, guarded tabs,
 * the tab list, reads and navigation), each of which keeps its own state.
 */
export function createBrowserSession(options: BrowserSessionOptions): BrowserSession {
  const refs = new ElementRefs()
  const consent = createConsentWatcher(options.env.logger)
  const policy = createSessionPolicy(options)
  const converter = new SessionConverter(options.env)
  const tabs = new TabList()
  const connection: SessionConnection = new SessionConnection({
    config: policy.config,
    verdicts: policy.verdicts,
    guard: policy.guard,
    logger: options.env.logger,
    unattributed: (refusal) => void tabs.current()?.refusals.push(refusal),
    closeGuardedPages: () => pages.closeAll(),
  })
  const pages: TabGuard = new TabGuard({
    requests: () => connection.attach().then((a) => a.requests),
    consent,
    tabs,
    onClosed: (tab) => refs.forgetPage(tab.page),
  })

  async function openTab(): Promise<Tab> {
    const { connection: browser } = await connection.attach()
    const page = await browser.newPage()
    try {
      const tab = await pages.prepare(page)
      tabs.activate(tab)
      return tab
    } catch (error) {
      await page.close().catch(() => {})
      throw new AppError(
        'UNAVAILABLE',
        `A new tab could not be put under the URL guard: ${shortReason(error)}`,
        { cause: error },
      )
    }
  }

  return {
    config: policy.config,
    guard: policy.guard,
    refs,
    async activeTab() {
      const current = tabs.current()
      if (current && !current.page.isClosed()) return current
      return openTab()
    },
    tabs: () => tabs.list(),
    activeIndex: () => tabs.activeIndex(),
    openTab,
    async switchTab(index) {
      const tab = tabs.select(index)
      await tab.page.bringToFront().catch(() => {})
      return tab
    },
    async closeTab(index) {
      await tabs.byIndex(index).page.close()
    },
    async focus(page) {
      const tab = tabs.find(page)
      if (!tab) throw new AppError('NOT_FOUND', 'The tab of that element is closed; read the page again.')
      tabs.activate(tab)
      return tab
    },
    navigate: (tab, url) => navigateTab(tab, url, { guard: policy.guard, converter: () => converter.get() }),
    history: historyStep,
    settleAfterAction: (tab, action, opensTab) => settleAfterAction(tab, action, { pages, tabs }, opensTab),
    read: (tab) => readTab(tab, { verdicts: policy.verdicts, consent, refs }),
    assertShown: async (tab) => assertShown(tab, await policy.verdicts()),
    async dispose() {
      const live = await connection.dispose()
      // Tabs Bureau's pages opened are Bureau's too; the connection closes those it opened itself.
      await pages.closeAll()
      await live?.connection.close()
      await live?.requests.close()
      await converter.dispose()
    },
  }
}
