import { EventEmitter } from 'node:events'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { newTab, type Tab } from '../../../../src/main/browser/session/tab'
import { TabList } from '../../../../src/main/browser/session/tabList'
import { AppError } from '../../../../src/shared/errors'

/** Just enough of a page for the tab list: it can be closed, and says so with a 'close' event. */
class FakePage extends EventEmitter {
  private closed = false
  isClosed() {
    return this.closed
  }
  close() {
    this.closed = true
    this.emit('close')
  }
}

function fakeTab(): { tab: Tab; page: FakePage } {
  const page = new FakePage()
  return { tab: newTab(page as unknown as Page), page }
}

describe('TabList', () => {
  it('has no active tab until one is activated', () => {
    const list = new TabList()
    const { tab } = fakeTab()
    list.track(tab)
    expect(list.activeIndex()).toBe(-1)
    expect(list.current()).toBeUndefined()
    list.activate(tab)
    expect(list.activeIndex()).toBe(0)
    expect(list.current()).toBe(tab)
  })

  it('lists a tab once, and never one whose page is already closed', () => {
    const list = new TabList()
    const { tab } = fakeTab()
    const closed = fakeTab()
    closed.page.close()
    list.track(tab)
    list.track(tab)
    list.track(closed.tab)
    expect(list.list()).toEqual([tab])
  })

  it('keeps the same tab active when an earlier tab closes, and tells who closed', () => {
    const list = new TabList()
    const gone: Tab[] = []
    const [a, b, c] = [fakeTab(), fakeTab(), fakeTab()]
    for (const t of [a, b, c]) list.track(t.tab, (tab) => gone.push(tab))
    list.activate(c.tab)
    a.page.close()
    expect(list.list()).toEqual([b.tab, c.tab])
    expect(list.activeIndex()).toBe(1)
    expect(list.current()).toBe(c.tab)
    expect(gone).toEqual([a.tab])
  })

  it('moves to the last tab when the active last tab closes, and to none when all are gone', () => {
    const list = new TabList()
    const [a, b] = [fakeTab(), fakeTab()]
    list.track(a.tab)
    list.track(b.tab)
    list.activate(b.tab)
    b.page.close()
    expect(list.current()).toBe(a.tab)
    a.page.close()
    expect(list.activeIndex()).toBe(-1)
    expect(list.list()).toEqual([])
  })

  it('keeps the active index when a later tab closes', () => {
    const list = new TabList()
    const [a, b, c] = [fakeTab(), fakeTab(), fakeTab()]
    for (const t of [a, b, c]) list.track(t.tab)
    list.select(1)
    c.page.close()
    expect(list.current()).toBe(b.tab)
  })

  it('refuses an index that is not listed, naming the range', () => {
    const list = new TabList()
    expect(() => list.select(0)).toThrow(/no tab is open/)
    const { tab } = fakeTab()
    list.track(tab)
    list.activate(tab)
    let error: unknown
    try {
      list.select(3)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('NOT_FOUND')
    expect((error as AppError).message).toContain('numbered 0 to 0')
    expect(list.activeIndex()).toBe(0)
  })

  it('finds a tab by its page and returns a copy of the list', () => {
    const list = new TabList()
    const { tab, page } = fakeTab()
    list.track(tab)
    expect(list.find(page as unknown as Page)).toBe(tab)
    expect(list.find(new FakePage() as unknown as Page)).toBeUndefined()
    list.list().pop()
    expect(list.list()).toEqual([tab])
  })
})
