import type { Page } from 'playwright-core'
import type { RefusalSink } from './refusals'

/**
 * What the guard tells about one of Bureau's tabs. Both come from the stream the guard decides on, so
 * a commit the browser reported before a refusal is never heard after it (in the user's browser that
 * stream is a connection of its own, apart from Playwright's).
 */
export interface TabReports {
  refused: RefusalSink
  /** A document committed in the tab's main frame (Chromium's error page included). */
  committed(url: string): void
}

/** Keeps the requests of Bureau's tabs under the URL guard, before the browser sends them. */
export interface RequestGuard {
  /**
   * Takes over one of Bureau's tabs (a new one, or one a Bureau tab opened): its refusals and commits
   * go to `reports` from now on. Rejects when the tab cannot be guarded; such a tab must not be used.
   */
  own(page: Page, reports: TabReports): Promise<void>
  close(): Promise<void>
}

export const CLOSED_AT_OPEN = 'the URL guard closed this tab: its first page was refused'
