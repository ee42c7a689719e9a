import type { Page } from 'playwright-core'
import type { ConsentWatcher } from '../consent/consentWatcher'
import type { Refusal } from '../guard/refusals'
import type { RequestGuard } from '../guard/requestGuard'
import { isErrorPage } from '../guard/shownPage'
import { newTab, type Tab } from './tab'
import { forgetConsent } from './tabConsent'
import type { TabList } from './tabList'
import { NAVIGATION_TIMEOUT_MS } from './timeouts'

export interface TabGuardOptions {
  /** The request guard of the session's connection (connecting first when needed). */
  requests(): Promise<RequestGuard>
  consent: Pick<ConsentWatcher, 'attach'>
  tabs: TabList
  /** Runs when a listed tab's page closes. */
  onClosed(tab: Tab): void
}

/**
 * Puts Bureau's pages under the URL guard before they are listed as tabs, and knows every page it did
 * (or is doing) so, including tabs those pages opened.
 */
export class TabGuard {
  private readonly preparing = new Map<Page, Promise<Tab>>()

  constructor(private readonly options: TabGuardOptions) {}

  /** Puts a tab under the URL guard, then lists it. Fails closed: a tab that cannot be guarded is never listed. */
  prepare(page: Page): Promise<Tab> {
    let prepared = this.preparing.get(page)
    if (!prepared) {
      prepared = this.guardTab(page)
      this.preparing.set(page, prepared)
      page.once('close', () => this.preparing.delete(page))
    }
    return prepared
  }

  /** Closes every open page Bureau put (or is putting) under the guard. */
  async closeAll(): Promise<void> {
    for (const page of [...this.preparing.keys()]) await page.close().catch(() => {})
  }

  /**
   * A new tab whose first page the guard refused shows only Chromium's error page: it is closed, and
   * the refusal told on the tab that opened it. True when the new tab is gone.
   */
  async closeIfRefusedAtOpen(opener: Tab, opened: Tab): Promise<boolean> {
    const page = opened.page
    await page.waitForLoadState('domcontentloaded', { timeout: NAVIGATION_TIMEOUT_MS }).catch(() => {})
    if (page.isClosed()) return true
    const refusal = opened.blockedNavigation
    if (!refusal || !isErrorPage(page.url())) return false
    opener.refusals.push({ kind: 'popup', url: page.url(), message: refusal })
    await page.close().catch(() => {})
    return true
  }

  private async guardTab(page: Page): Promise<Tab> {
    const { tabs } = this.options
    const tab = newTab(page)
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return
      tab.pdf = null
      forgetConsent(tab)
    })
    // Tabs our pages open (target=_blank, window.open) are ours too; the user's own tabs are not. The
    // request guard holds such a tab from its first request (and closes it when that is refused).
    page.on('popup', (popup) => {
      void this.prepare(popup).then(
        async (popupTab) => {
          if (!(await this.closeIfRefusedAtOpen(tab, popupTab))) tabs.activate(popupTab)
        },
        () => popup.close().catch(() => {}),
      )
    })
    const requests = await this.options.requests()
    await requests.own(page, {
      refused: (refusal: Refusal) => {
        tab.refusals.push(refusal)
        if (refusal.kind === 'navigation') tab.blockedNavigation = refusal.message
      },
      // Heard from the guard, not from the page: a commit before the refusal cannot arrive after it.
      committed: (url) => {
        if (!isErrorPage(url)) tab.blockedNavigation = null
      },
    })
    await this.options.consent.attach(page).catch(() => {})
    page.setDefaultTimeout(10_000)
    return tabs.track(tab, this.options.onClosed)
  }
}
