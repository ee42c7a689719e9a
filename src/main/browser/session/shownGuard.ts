import { AppError } from '../../../shared/errors'
import type { RequestVerdicts } from '../guard/requestVerdicts'
import { blankPage, isErrorPage, refusalOfShownPage } from '../guard/shownPage'
import type { Tab } from './tab'

/** Blanks the tab and throws FORBIDDEN with the guard's refusal: nothing of the page is returned. */
export async function refuseShown(tab: Tab, refusal: string): Promise<never> {
  // Reported here, so not again as a note of a later page.
  tab.refusals = tab.refusals.filter((r) => r.kind !== 'navigation')
  tab.blockedNavigation = null
  tab.pdf = null
  await blankPage(tab.page)
  throw new AppError('FORBIDDEN', `${refusal} Nothing of that page is returned; the tab is blank now.`)
}

/** Throws FORBIDDEN (and blanks the tab) when what the tab shows is refused by the URL guard. */
export async function assertShown(tab: Tab, verdicts: RequestVerdicts): Promise<void> {
  const shown = await refusalOfShownPage(tab.page, verdicts)
  if (shown) return refuseShown(tab, shown)
  // Chromium's error page after a navigation the guard stopped: the answer is the refusal, not that page.
  if (tab.blockedNavigation && isErrorPage(tab.page.url())) return refuseShown(tab, tab.blockedNavigation)
}
