import type { Page } from 'playwright-core'
import { AppError } from '../../../shared/errors'
import type { Tab } from './tab'

/** Bureau's listed tabs (the ones under the guard) in opening order, and which one is active. */
export class TabList {
  private readonly tabs: Tab[] = []
  private active = -1

  /** A copy, so callers cannot reorder the list. */
  list(): Tab[] {
    return [...this.tabs]
  }

  activeIndex(): number {
    return this.active
  }

  /** The active tab, whether or not its page has closed since; undefined when none is. */
  current(): Tab | undefined {
    return this.tabs[this.active]
  }

  /** Lists a tab; it leaves the list when its page closes (and `onClosed` runs). Closed pages are not listed. */
  track(tab: Tab, onClosed: (tab: Tab) => void = () => {}): Tab {
    if (this.tabs.includes(tab) || tab.page.isClosed()) return tab
    this.tabs.push(tab)
    tab.page.once('close', () => {
      if (this.remove(tab)) onClosed(tab)
    })
    return tab
  }

  /** Makes a tab active; a tab that is not listed leaves no tab active. */
  activate(tab: Tab): void {
    this.active = this.tabs.indexOf(tab)
  }

  byIndex(index: number): Tab {
    const tab = this.tabs[index]
    if (!tab) {
      const count = this.tabs.length
      throw new AppError(
        'NOT_FOUND',
        `There is no tab ${index}; ${count === 0 ? 'no tab is open' : `tabs are numbered 0 to ${count - 1}`}.`,
      )
    }
    return tab
  }

  /** Makes the tab at `index` active. */
  select(index: number): Tab {
    const tab = this.byIndex(index)
    this.active = index
    return tab
  }

  find(page: Page): Tab | undefined {
    return this.tabs.find((t) => t.page === page)
  }

  /** Unlists a tab, keeping the same tab active (or the last one, when the active tab went). */
  private remove(tab: Tab): boolean {
    const index = this.tabs.indexOf(tab)
    if (index < 0) return false
    this.tabs.splice(index, 1)
    if (this.active >= this.tabs.length) this.active = this.tabs.length - 1
    else if (index < this.active) this.active--
    return true
  }
}
