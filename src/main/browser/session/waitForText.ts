import { setTimeout as delay } from 'node:timers/promises'
import { refuseShown } from './shownGuard'
import type { Tab } from './tab'

/** How often the tab is asked whether the guard stopped its navigation meanwhile (a Node-side check). */
const REFUSAL_POLL_MS = 50

/**
 * Waits until the page's text holds `text`: true when it did, false after `timeoutMs`. When the URL
 * guard stopped the tab's own navigation (a redirect, meta refresh or script moving the page somewhere
 * refused), before the wait or during it, the text cannot come: the wait ends at once in the refusal
 * (FORBIDDEN, the tab blanked), whether or not Chromium's error page has committed yet.
 */
export async function waitForText(tab: Tab, text: string, timeoutMs: number): Promise<boolean> {
  const appeared = tab.page
    .waitForFunction(`(document.body?.innerText ?? '').includes(${JSON.stringify(text)})`, undefined, {
      timeout: timeoutMs,
      polling: 200,
    })
    .then(
      () => true,
      () => false,
    )
  for (;;) {
    const outcome = await Promise.race([appeared, delay(REFUSAL_POLL_MS).then(() => null)])
    if (outcome !== null) return outcome
    if (tab.blockedNavigation) return refuseShown(tab, tab.blockedNavigation)
  }
}
