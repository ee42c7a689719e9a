import { type BrowserContext, type BrowserContextOptions, test as base, type Page } from '@playwright/test'

import { skipReason } from '../../test/support/requirements'
import { type SharedHost, startSharedHost } from './sharedHost'

export { expect } from '@playwright/test'

type Listener = (...args: unknown[]) => void

interface Reused {
  key: string
  context: BrowserContext
  page: Page
}

/** The event names a test may listen to on its page; what it adds is removed after the test. */
const PAGE_EVENTS = ['console', 'pageerror', 'request', 'response', 'requestfinished', 'dialog', 'download']

/**
 * `test` with one browser context and page per worker (and per set of context options), instead of
 * a new context per test: a fresh context loads and compiles the whole renderer again, about two
 * seconds a test on two cores; kept across spec files, the renderer of the worker's shared host stays cached. Every test still starts on a blank page and loads the app with its own
 * `page.goto`; after each test the page's routes, listeners, viewport and media emulation are reset and
 * the context's cookies (the UI token) and permissions are cleared. The app keeps no state in the
 * browser besides that cookie (no web storage), so what a test sees on load is what a new context sees,
 * apart from the warm HTTP cache.
 */
// Every spec drives Debian's Chromium: where it is missing each test is skipped with this reason (printed
// and recorded for the summary once per worker); under BUREAU_CI skipReason throws, so the run fails.
const chromiumMissing = skipReason('Playwright specs (each drives Chromium)', ['chromium'])

export const test = base.extend<
  { reusedPage: Page; needsChromium: undefined },
  { reused: { current?: Reused }; sharedHost: SharedHost }
>({
  // Started when a spec file of the worker first asks for it (in its beforeAll), stopped when the worker
  // ends; each spec file resets it before use.
  sharedHost: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const host = await startSharedHost()
      await use(host)
      await host.stop()
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  needsChromium: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use, testInfo) => {
      testInfo.skip(Boolean(chromiumMissing), chromiumMissing)
      await use(undefined)
    },
    { auto: true },
  ],
  reused: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const holder: { current?: Reused } = {}
      await use(holder)
      await holder.current?.context.close()
    },
    { scope: 'worker' },
  ],
  context: async (
    {
      browser,
      reused,
      acceptDownloads,
      bypassCSP,
      colorScheme,
      locale,
      permissions,
      viewport,
      contextOptions,
    },
    use,
  ) => {
    const options: BrowserContextOptions = {
      ...contextOptions,
      ...defined({ acceptDownloads, bypassCSP, colorScheme, locale, permissions, viewport }),
    }
    const key = JSON.stringify(options)
    if (reused.current?.key !== key || reused.current.page.isClosed()) {
      await reused.current?.context.close()
      const context = await browser.newContext(options)
      reused.current = { key, context, page: await context.newPage() }
    }
    const { context, page } = reused.current
    await use(context)
    for (const other of context.pages()) if (other !== page) await other.close()
    await context.clearCookies()
    await context.clearPermissions()
    if (permissions) await context.grantPermissions(permissions)
  },
  reusedPage: async ({ context, reused }, use) => {
    const page = reused.current?.page
    if (!page || page.context() !== context) throw new Error('the reused page belongs to another context')
    await use(page)
  },
  page: async ({ reusedPage: page, colorScheme, viewport }, use) => {
    // Page's typings leave out the `listeners` its event emitter has.
    const emitter = page as unknown as {
      listeners(name: string): Listener[]
      off(name: string, l: Listener): void
    }
    const before = new Map(PAGE_EVENTS.map((name) => [name, new Set(emitter.listeners(name))]))
    await use(page)
    if (page.isClosed()) return
    for (const [name, kept] of before)
      for (const listener of emitter.listeners(name)) if (!kept.has(listener)) emitter.off(name, listener)
    await page.unrouteAll({ behavior: 'ignoreErrors' })
    await page.goto('about:blank')
    if (viewport) await page.setViewportSize(viewport)
    await page.emulateMedia({ colorScheme: colorScheme ?? 'light', media: null, reducedMotion: null })
  },
})

function defined<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>
}
