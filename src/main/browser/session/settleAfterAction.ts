import { setTimeout as sleep } from 'node:timers/promises'
import type { Page, Request } from 'playwright-core'
import type { Tab } from './tab'
import type { TabGuard } from './tabGuard'
import type { TabList } from './tabList'
import { ACTION_SETTLE_MS, LOAD_GRACE_MS, NAVIGATION_TIMEOUT_MS, NEW_TAB_TIMEOUT_MS } from './timeouts'

export interface SettleDeps {
  pages: Pick<TabGuard, 'prepare' | 'closeIfRefusedAtOpen'>
  tabs: Pick<TabList, 'activate'>
}

/**
 * Waits for the document after an action (click, key) and follows (and activates) a tab it opened. When
 * the action is known to open a tab (`opensTab`), the wait for it is longer than the settle time.
 */
export async function settleAfterAction(
  tab: Tab,
  action: () => Promise<unknown>,
  deps: SettleDeps,
  opensTab = false,
): Promise<Tab> {
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
    const window = opensTab ? NEW_TAB_TIMEOUT_MS : ACTION_SETTLE_MS
    const outcome = await Promise.race([started, sleep(window).then(() => null)])
    if (outcome && outcome !== 'navigation') {
      const opened = await deps.pages.prepare(outcome).catch(() => null)
      if (!opened || (await deps.pages.closeIfRefusedAtOpen(tab, opened))) return tab
      deps.tabs.activate(opened)
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
