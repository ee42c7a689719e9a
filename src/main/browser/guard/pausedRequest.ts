import type { Page } from 'playwright-core'
import { z } from 'zod'
import type { RefusalSink } from './refusals'
import type { RequestVerdicts } from './requestVerdicts'

/** `Fetch.requestPaused`: a request the browser holds until it is continued or failed. */
export const PausedRequest = z.object({
  requestId: z.string(),
  frameId: z.string().optional(),
  resourceType: z.string(),
  request: z.object({ url: z.string() }),
})
export type PausedRequest = z.infer<typeof PausedRequest>

/** Who hears about a tab's refused requests. */
export interface Owner {
  sink: RefusalSink
  /**
   * False for a tab one of Bureau's tabs opened that Bureau has not taken over yet: its refusals go to
   * the opener, and a refused navigation of its own closes it.
   */
  claimed: boolean
  /** Commits of the tab's main frame, once the tab is claimed. */
  committed?: (url: string) => void
}

/** Content the page already holds: nothing is fetched for it. */
const LOCAL_CONTENT = /^(data|blob):/i

/**
 * The refusal for a paused request, or null when it may go. A frame or subresource may use data: and
 * blob: URLs; a tab's own navigation gets the full check (it may only show http and https pages).
 */
export async function refusalOf(
  verdicts: RequestVerdicts,
  url: string,
  tabNavigation: boolean,
): Promise<string | null> {
  if (!tabNavigation && LOCAL_CONTENT.test(url)) return null
  try {
    return await verdicts.refusal(url)
  } catch (error) {
    return `Refused ${url.slice(0, 200)}: it could not be checked (${error instanceof Error ? error.message : String(error)}).`
  }
}

/** Tells the owner about a refused request; a refused first page of an unclaimed new tab is a popup. */
export function report(owner: Owner, url: string, message: string, tabNavigation: boolean): void {
  const kind = !tabNavigation ? 'request' : owner.claimed ? 'navigation' : 'popup'
  owner.sink({ kind, url, message })
}

/** The DevTools target id of a page (the id of its main frame too). */
export async function targetInfoOf(page: Page): Promise<{ targetId: string; url: string }> {
  const session = await page.context().newCDPSession(page)
  try {
    const { targetInfo } = await session.send('Target.getTargetInfo')
    return { targetId: targetInfo.targetId, url: targetInfo.url }
  } finally {
    await session.detach().catch(() => {})
  }
}
