import { setTimeout as delay } from 'node:timers/promises'
import { isErrorPage } from '../guard/shownPage'
import type { Tab } from './tab'

export type TextWait = 'found' | 'refused' | 'timeout'

const REFUSAL_POLL_MS = 100
/** How long Chromium gets to show its error page after the guard stopped the tab's navigation. */
const ERROR_PAGE_MS = 2_000

/**
 * Waits until the page's text holds `text`. Ends early with `refused` when the URL guard stopped the
 * tab's own navigation (a redirect, meta refresh or script moving the page somewhere refused): the
 * text cannot come, and the caller answers with the refusal instead of waiting out the timeout.
 */
export async function waitForText(tab: Tab, text: string, timeoutMs: number): Promise<TextWait> {
  const appeared = tab.page
    .waitForFunction(`(document.body?.innerText ?? '').includes(${JSON.stringify(text)})`, undefined, {
      timeout: timeoutMs,
      polling: 200,
    })
    .then(
      () => 'found' as const,
      () => 'timeout' as const,
    )
  let settled = false
  void appeared.finally(() => {
    settled = true
  })
  while (!settled) {
    if (tab.blockedNavigation && (await showsErrorPage(tab))) return 'refused'
    await Promise.race([appeared, delay(REFUSAL_POLL_MS)])
  }
  return appeared
}

async function showsErrorPage(tab: Tab): Promise<boolean> {
  await tab.page
    .waitForURL((url) => isErrorPage(url.href), { timeout: ERROR_PAGE_MS, waitUntil: 'commit' })
    .catch(() => {})
  return isErrorPage(tab.page.url())
}
