import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { ConsentOutcome } from '../../../../src/main/browser/consent/consentWatcher'
import { newTab } from '../../../../src/main/browser/session/tab'
import { consentNote, forgetConsent, settleConsent } from '../../../../src/main/browser/session/tabConsent'

/** A consent watcher that answers each settle with the next outcome and counts the calls. */
function scriptedWatcher(...outcomes: (ConsentOutcome | undefined)[]) {
  const budgets: number[] = []
  return {
    budgets,
    async settle(_page: Page, budgetMs: number) {
      budgets.push(budgetMs)
      return outcomes.shift()
    },
  }
}

const page = {} as Page

describe('tab consent', () => {
  it('waits for the banner once per document and keeps its note', async () => {
    const tab = newTab(page)
    const watcher = scriptedWatcher({ cmp: 'Onetrust', optedOut: true }, { cmp: 'Other', optedOut: false })
    await settleConsent(watcher, tab)
    await settleConsent(watcher, tab)
    expect(watcher.budgets).toEqual([2_500])
    expect(tab.consentSettled).toBe(true)
    expect(consentNote(tab.consent)).toBe(
      'Cookie banner (Onetrust): dismissed, non-essential cookies refused.',
    )
  })

  it('waits again after a new document, with no note when no banner was found', async () => {
    const tab = newTab(page)
    const watcher = scriptedWatcher({ cmp: 'Onetrust', optedOut: false }, undefined)
    await settleConsent(watcher, tab, 100)
    expect(consentNote(tab.consent)).toBe('Cookie banner (Onetrust): found, the opt-out did not complete.')
    forgetConsent(tab)
    expect(tab.consentSettled).toBe(false)
    expect(consentNote(tab.consent)).toBeNull()
    await settleConsent(watcher, tab, 100)
    expect(watcher.budgets).toEqual([100, 100])
    expect(tab.consentSettled).toBe(true)
    expect(consentNote(tab.consent)).toBeNull()
  })

  it('tells an opt-out that finished after the wait, before the read', async () => {
    const tab = newTab(page)
    const live: ConsentOutcome = { cmp: 'HEURISTIC-REJECT' }
    await settleConsent(scriptedWatcher(live), tab, 100)
    expect(consentNote(tab.consent)).toBe(
      'Cookie banner (HEURISTIC-REJECT): found, the opt-out did not complete.',
    )
    live.optedOut = true
    expect(consentNote(tab.consent)).toBe(
      'Cookie banner (HEURISTIC-REJECT): dismissed, non-essential cookies refused.',
    )
  })

  it('writes no note for an outcome without a consent manager', () => {
    expect(consentNote(undefined)).toBeNull()
    expect(consentNote({ optedOut: true })).toBeNull()
    expect(consentNote({ cmp: 'HEURISTIC' })).toBe(
      'Cookie banner (HEURISTIC): found, the opt-out did not complete.',
    )
  })
})
