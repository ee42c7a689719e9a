import type { Page } from 'playwright-core'
import type { ConsentOutcome } from '../consent/consentWatcher'
import type { Refusal } from '../guard/refusals'
import type { RenderedDocument } from '../snapshot/pageView'

/** One browser tab Bureau drives, and what it knows about the document in it. */
export interface Tab {
  page: Page
  /** A PDF shown as Markdown instead of the page (set by navigate, cleared when the tab moves on). */
  pdf: RenderedDocument | null
  /** Whether the cookie banner of the current document was already waited for. */
  consentSettled: boolean
  /**
   * What the consent watcher knows of the document's banner. Kept live (the watcher goes on filling
   * it in): an opt-out that finishes after the wait, before the read, is still told.
   */
  consent: ConsentOutcome | null
  /** Requests of the tab the URL guard refused since the last report. */
  refusals: Refusal[]
  /** The guard's message for the tab's own navigation it stopped, until another page commits. */
  blockedNavigation: string | null
}

export function newTab(page: Page): Tab {
  return { page, pdf: null, consentSettled: false, consent: null, refusals: [], blockedNavigation: null }
}
