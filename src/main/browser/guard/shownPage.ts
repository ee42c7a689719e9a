import type { Page } from 'playwright-core'
import type { RequestVerdicts } from './requestVerdicts'

/** The page Chromium shows when a navigation failed (also when the guard blocked it). */
export function isErrorPage(url: string): boolean {
  return url.startsWith('chrome-error:')
}

/**
 * Defence in depth, before anything of a tab is returned: the refusal for the address the tab shows
 * (or for one of its frames loaded from the network), or null. A blank tab and Chromium's error page
 * pass: they hold nothing fetched. Frames with data:, blob: or about: documents are the page's own.
 */
export async function refusalOfShownPage(page: Page, verdicts: RequestVerdicts): Promise<string | null> {
  const main = page.url()
  if (main !== 'about:blank' && !isErrorPage(main)) {
    const refusal = await verdicts.refusal(main, { fresh: true })
    if (refusal) return refusal
  }
  for (const frame of page.frames()) {
    if (frame === page.mainFrame() || !/^https?:/i.test(frame.url())) continue
    const refusal = await verdicts.refusal(frame.url())
    if (refusal) return refusal
  }
  return null
}

/**
 * Leaves a refused page: the tab shows about:blank. The refused navigation's error page may commit
 * after the blank page was asked for; the blank navigation still commits after it, so it is waited
 * for instead of asked for again (a second request would land later and cut the next navigation).
 */
export async function blankPage(page: Page): Promise<void> {
  for (let attempt = 0; attempt < 2 && !page.isClosed(); attempt++) {
    await page.goto('about:blank', { timeout: 5_000 }).catch(() => null)
    if (page.url() === 'about:blank') return
    const landed = await page
      .waitForURL('about:blank', { timeout: 5_000, waitUntil: 'load' })
      .then(() => true)
      .catch(() => false)
    if (landed) return
  }
}
