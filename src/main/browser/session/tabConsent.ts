import type { ConsentOutcome, ConsentWatcher } from '../consent/consentWatcher'
import type { Tab } from './tab'
import { CONSENT_BUDGET_MS } from './timeouts'

/** What a read tells about the cookie banner of a document; null when none was found. */
export function consentNote(outcome: ConsentOutcome | null | undefined): string | null {
  if (!outcome?.cmp) return null
  const result = outcome.optedOut
    ? 'dismissed, non-essential cookies refused'
    : 'found, the opt-out did not complete'
  return `Cookie banner (${outcome.cmp}): ${result}.`
}

/** Waits for the cookie banner of the tab's document to be handled, once per document. */
export async function settleConsent(
  watcher: Pick<ConsentWatcher, 'settle'>,
  tab: Tab,
  budgetMs = CONSENT_BUDGET_MS,
): Promise<void> {
  if (tab.consentSettled) return
  const outcome = await watcher.settle(tab.page, budgetMs)
  tab.consentSettled = true
  tab.consent = outcome ?? null
}

/** A new document in the tab: its banner is waited for again on the next read. */
export function forgetConsent(tab: Tab): void {
  tab.consentSettled = false
  tab.consent = null
}
