import type { Page } from 'playwright-core'
import { AppError } from '../../../shared/errors'
import { shortReason } from '../connect/connectErrors'
import type { ConsentWatcher } from '../consent/consentWatcher'
import type { ElementRefs } from '../elements/elementRefs'
import { refusalNotes } from '../guard/refusals'
import type { RequestVerdicts } from '../guard/requestVerdicts'
import { runInPage } from '../inpage/pageScript'
import { snapshotPage } from '../inpage/snapshotScript'
import type { RenderedDocument } from '../snapshot/pageView'
import { assertShown } from './shownGuard'
import type { Tab } from './tab'
import { consentNote, settleConsent } from './tabConsent'
import { NAVIGATION_TIMEOUT_MS } from './timeouts'

type Snapshot = Awaited<ReturnType<typeof snapshotPage>>

export interface ReadDeps {
  verdicts(): Promise<RequestVerdicts>
  consent: Pick<ConsentWatcher, 'settle'>
  refs: ElementRefs
}

/** The tab's document as Markdown with element ids, after the guard's check and the cookie banner. */
export async function readTab(tab: Tab, deps: ReadDeps): Promise<RenderedDocument> {
  await assertShown(tab, await deps.verdicts())
  if (tab.pdf) return tab.pdf
  const page = tab.page
  const shownUrl = page.url()
  await settleConsent(deps.consent, tab)
  const result = await snapshotOf(page, deps.refs)
  // The page may have moved on while it was read.
  if (page.url() !== shownUrl) await assertShown(tab, await deps.verdicts())
  deps.refs.remember(page, result.elements, result.nextId)
  return {
    url: result.url,
    title: result.title,
    markdown: result.markdown || '(The page shows no text.)',
    notes: readNotes(tab, result),
  }
}

async function snapshotOf(page: Page, refs: ElementRefs): Promise<Snapshot> {
  const snapshot = () =>
    runInPage(page, snapshotPage, {
      nextId: refs.nextId,
      maxOptions: 25,
      maxHref: 160,
      budgetMs: 5_000,
      includePaths: false,
    })
  try {
    return await snapshot().catch(async (error: unknown) => {
      // The page navigated while it was read (a late redirect or script): read the new document.
      if (!/context was destroyed|navigat/i.test(shortReason(error))) throw error
      await page.waitForLoadState('domcontentloaded', { timeout: NAVIGATION_TIMEOUT_MS }).catch(() => {})
      return snapshot()
    })
  } catch (error) {
    throw new AppError('UNAVAILABLE', `The page could not be read: ${shortReason(error)}`, { cause: error })
  }
}

/** The read's notes; the tab's refusals are reported once, so they are taken off the tab. */
function readNotes(tab: Tab, result: Snapshot): string[] {
  const notes: string[] = []
  const consent = consentNote(tab.consent)
  if (consent) notes.push(consent)
  if (result.crossOriginFrames > 0)
    notes.push(`${result.crossOriginFrames} cross-origin frame(s) are named but not read.`)
  notes.push(...refusalNotes(tab.refusals.splice(0)))
  return notes
}
