import type { Page } from 'playwright-core'
import type { RefusalSink } from './refusals'

/** Keeps the requests of Bureau's tabs under the URL guard, before the browser sends them. */
export interface RequestGuard {
  /**
   * Takes over one of Bureau's tabs (a new one, or one a Bureau tab opened): its refusals go to `sink`
   * from now on. Rejects when the tab cannot be guarded; such a tab must not be used.
   */
  own(page: Page, sink: RefusalSink): Promise<void>
  close(): Promise<void>
}

export const CLOSED_AT_OPEN = 'the URL guard closed this tab: its first page was refused'
