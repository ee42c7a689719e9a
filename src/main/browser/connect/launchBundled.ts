import { AppError } from '../../../shared/errors'
import { QUIET_FLAGS } from '../config/launchFlags'
import { findBrowser } from '../discovery/findBrowser'
import type { BrowserConfig, BrowserConnection } from '../types'
import { noBrowserFound, shortReason } from './connectErrors'

/** bundled-chromium: a local Chromium that Bureau starts, with its own throw-away context. */
export async function launchBundled(config: BrowserConfig): Promise<BrowserConnection> {
  const executablePath =
    config.executablePath ?? findBrowser({ families: ['chromium', 'chrome', 'edge'] })?.path ?? null
  if (!executablePath) throw noBrowserFound('Chromium')
  const { chromium } = await import('playwright-core')
  let browser: Awaited<ReturnType<typeof chromium.launch>>
  try {
    browser = await chromium.launch({
      executablePath,
      headless: config.headless,
      chromiumSandbox: false,
      args: [...QUIET_FLAGS, '--disable-gpu'],
      // Loopback too: Chromium sends it past proxies unless told otherwise.
      ...(config.proxyServer ? { proxy: { server: config.proxyServer, bypass: '<-loopback>' } } : {}),
      timeout: 30_000,
    })
  } catch (error) {
    throw new AppError('UNAVAILABLE', `Chromium could not be started: ${shortReason(error)}`, {
      cause: error,
    })
  }
  // Service workers fetch outside the pages' request checks; this browser has no use for them.
  const context = await browser.newContext({ acceptDownloads: true, serviceWorkers: 'block' })
  return {
    mode: 'bundled-chromium',
    browser,
    newPage: () => context.newPage(),
    close: () => browser.close(),
  }
}
