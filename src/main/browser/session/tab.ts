import type { Page } from 'playwright-core'
import type { Refusal } from '../guard/refusals'
import type { RenderedDocument } from '../snapshot/pageView'

/** One browser tab Bureau drives, and what it knows about the document in it. */
export interface Tab {
  page: Page
  /** A PDF shown as Markdown instead of the page (set by navigate, cleared when the tab moves on). */
  pdf: RenderedDocument | null
  /** Whether the cookie banner of the current document was already waited for. */
  consentSettled: boolean
  consentNote: string | null
  /** Requests of the tab the URL guard refused since the last report. */
  refusals: Refusal[]
  /** The guard's message for the tab's own navigation it stopped, until another page commits. */
  blockedNavigation: string | null
}

export function newTab(page: Page): Tab {
  return { page, pdf: null, consentSettled: false, consentNote: null, refusals: [], blockedNavigation: null }
}
