export { browserExecutable } from './documentsExecutable'
export { browserHandlers } from './ipc/browserHandlers'
export { frameUntrusted } from './snapshot/frameContent'
export type { BrowserEnvironment, BrowserOverrides } from './types'

/** The `web` toolset, loaded on demand (playwright-core and the page scripts load only when it is used). */
export async function loadWebToolset(env: import('./types').BrowserEnvironment) {
  const { createWebToolset } = await import('./toolset/webToolset')
  return createWebToolset(env)
}

/** The page serializer itself, for the benchmark: runs the in-page pass on a Playwright page. */
export async function snapshotPlaywrightPage(
  page: import('playwright-core').Page,
  options: Partial<import('./inpage/snapshotTypes').SnapshotOptions> = {},
) {
  const [{ runInPage }, { snapshotPage }] = await Promise.all([
    import('./inpage/pageScript'),
    import('./inpage/snapshotScript'),
  ])
  return runInPage(page, snapshotPage, {
    nextId: 1,
    maxOptions: 25,
    maxHref: 160,
    budgetMs: 5_000,
    includePaths: false,
    ...options,
  })
}
export { QUIET_FLAGS } from './config/launchFlags'
export { findBrowser } from './discovery/findBrowser'
