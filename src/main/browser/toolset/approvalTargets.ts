import type { ApprovalTouch } from '../../tools'
import type { BrowserSession } from '../session/browserSession'

const MAX_TEXT = 80

const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text)

/** The URL of the active tab, when a tab is open (nothing is started to find out). */
export function currentPage(session: BrowserSession): ApprovalTouch[] {
  const tab = session.tabs()[session.activeIndex()]
  const url = tab && !tab.page.isClosed() ? tab.page.url() : undefined
  return url && url !== 'about:blank' ? [{ label: 'Page', value: url }] : []
}

/**
 * The elements a click or a fill acts on, as the model saw them (`button "Send" (e12)`), and the page
 * they are on. An id the session does not know is shown as such: the call will fail anyway.
 */
export function elementTargets(session: BrowserSession, ids: readonly string[]): ApprovalTouch[] {
  const touches: ApprovalTouch[] = []
  const pages = new Set<string>()
  for (const id of ids) {
    const element = session.refs.describe(id)
    if (!element) {
      touches.push({ label: 'Element', value: `${id} (not on a page read in this run)` })
      continue
    }
    pages.add(element.url)
    const text = element.text.trim()
    touches.push({ label: 'Element', value: `${element.kind}${text ? ` "${clip(text)}"` : ''} (${id})` })
  }
  const pageTouches =
    pages.size > 0 ? [...pages].map((url) => ({ label: 'Page', value: url })) : currentPage(session)
  return [...pageTouches, ...touches]
}
