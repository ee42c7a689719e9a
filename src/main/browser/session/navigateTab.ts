import type { Page } from 'playwright-core'
import { AppError } from '../../../shared/errors'
import type { Converter } from '../../convert'
import type { UrlGuard } from '../../tools'
import { shortReason } from '../connect/connectErrors'
import { guardedGet, isPdf, pdfToMarkdown } from '../pdf/pdfDocument'
import type { RenderedDocument } from '../snapshot/pageView'
import { refuseShown } from './shownGuard'
import type { Tab } from './tab'
import { LOAD_GRACE_MS, NAVIGATION_TIMEOUT_MS } from './timeouts'

export interface NavigateDeps {
  guard(): Promise<UrlGuard>
  converter(): Promise<Converter>
}

/** Opens a URL the guard allows in the tab; a PDF is fetched and kept on the tab as Markdown. */
export async function navigateTab(tab: Tab, url: string, deps: NavigateDeps): Promise<void> {
  const urlGuard = await deps.guard()
  const checked = await urlGuard.check(url)
  tab.refusals = []
  tab.blockedNavigation = null
  let response: Awaited<ReturnType<Page['goto']>> = null
  let downloadStarted = false
  try {
    response = await tab.page.goto(checked.href, {
      waitUntil: 'domcontentloaded',
      timeout: NAVIGATION_TIMEOUT_MS,
    })
  } catch (error) {
    const reason = shortReason(error)
    if (tab.blockedNavigation) await refuseShown(tab, tab.blockedNavigation)
    // Headless Chromium downloads a PDF instead of showing it.
    if (/Download is starting|ERR_ABORTED/.test(reason)) downloadStarted = true
    else if (/Timeout/i.test(reason))
      throw new AppError(
        'TIMEOUT',
        `${checked.href} did not load within ${NAVIGATION_TIMEOUT_MS / 1000} s.`,
        { cause: error },
      )
    else throw new AppError('UNAVAILABLE', `Could not open ${checked.href}: ${reason}`, { cause: error })
  }
  const contentType = response?.headers()['content-type']
  if (downloadStarted || contentType?.toLowerCase().includes('application/pdf')) {
    tab.pdf = await fetchPdf(tab.page, checked.href, urlGuard, deps)
    return
  }
  await tab.page.waitForLoadState('load', { timeout: LOAD_GRACE_MS }).catch(() => {})
}

async function fetchPdf(
  page: Page,
  href: string,
  urlGuard: UrlGuard,
  deps: NavigateDeps,
): Promise<RenderedDocument> {
  const fetched = await guardedGet(page.context(), urlGuard, href)
  const bytes = await fetched.response.body()
  if (!isPdf(bytes, fetched.response.headers()['content-type']))
    throw new AppError('UNSUPPORTED', `${href} is a file download, not a page; use download with its url.`)
  const converted = await pdfToMarkdown(await deps.converter(), fetched.url, bytes)
  return {
    url: fetched.url,
    title: converted.title,
    markdown: converted.markdown,
    notes: ['A PDF, converted to Markdown.'],
  }
}

/** Back or forward in the tab's history (pages restored from the back-forward cache included). */
export async function historyStep(tab: Tab, direction: 'back' | 'forward'): Promise<void> {
  const options = { waitUntil: 'commit' as const, timeout: NAVIGATION_TIMEOUT_MS }
  const response = direction === 'back' ? tab.page.goBack(options) : tab.page.goForward(options)
  await response.catch(() => null)
  // A page restored from the back-forward cache fires no load events: ask the document instead.
  await tab.page
    .waitForFunction("document.readyState !== 'loading'", undefined, { timeout: LOAD_GRACE_MS })
    .catch(() => {})
}
