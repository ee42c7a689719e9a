import type { Page } from 'playwright-core'
import type { RenderedDocument } from '../snapshot/pageView'

/** One browser tab Bureau drives, and what it knows about the document in it. */
export interface Tab {
  page: Page
  /** A PDF shown as Markdown instead of the page (set by navigate, cleared when the tab moves on). */
  pdf: RenderedDocument | null
  /** Whether the cookie banner of the current document was already waited for. */
  consentSettled: boolean
  consentNote: string | null
  /** Navigations the URL guard refused since the last report. */
  refusals: string[]
}

export function newTab(page: Page): Tab {
  return { page, pdf: null, consentSettled: false, consentNote: null, refusals: [] }
}
