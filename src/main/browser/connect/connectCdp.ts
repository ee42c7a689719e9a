import { AppError } from '../../../shared/errors'
import type { BrowserConfig, BrowserConnection } from '../types'
import { cdpUnreachable, shortReason } from './connectErrors'

/**
 * cdp: attach to a browser that is already running (http://host:port or a ws:// endpoint).
 * Bureau works in tabs it opens itself and closes only those; the browser keeps running.
 */
export async function connectCdp(config: BrowserConfig): Promise<BrowserConnection> {
  const endpoint = config.cdpEndpoint
  if (!endpoint)
    throw new AppError(
      'UNAVAILABLE',
      'The browser mode is cdp but no DevTools endpoint is set. Set browser.cdpEndpoint (e.g. http://127.0.0.1:9222) or use "Start Edge for Bureau" in Settings.',
    )
  const { chromium } = await import('playwright-core')
  let browser: Awaited<ReturnType<typeof chromium.connectOverCDP>>
  try {
    browser = await chromium.connectOverCDP(endpoint, { timeout: 15_000 })
  } catch (error) {
    throw cdpUnreachable(endpoint, shortReason(error))
  }
  const context = browser.contexts()[0] ?? (await browser.newContext())
  const opened = new Set<import('playwright-core').Page>()
  return {
    mode: 'cdp',
    browser,
    async newPage() {
      const page = await context.newPage()
      opened.add(page)
      return page
    },
    async close() {
      for (const page of opened) await page.close().catch(() => {})
      // Disconnects only: a browser we attached to over CDP stays open for its user.
      await browser.close().catch(() => {})
    },
  }
}
