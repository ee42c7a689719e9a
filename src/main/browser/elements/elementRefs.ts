import type { ElementHandle, Page } from 'playwright-core'
import { AppError } from '../../../shared/errors'
import { locateElement } from '../inpage/locateScript'
import { elementInPage } from '../inpage/pageScript'
import type { InteractiveKind, SnapshotElement } from '../inpage/snapshotTypes'

export interface ElementRecord extends SnapshotElement {
  page: Page
}

export interface LocatedElement {
  page: Page
  handle: ElementHandle<Element>
  record: ElementRecord
}

const ID = /^e(\d+)$/

/** Tag names an XPath match may have for each kind (checked before an element takes over an id). */
function tagFromPath(path: string | null): string | null {
  const last = path?.split('/').pop()
  return last ? last.replace(/\[\d+\]$/, '') : null
}

export function gone(id: string): AppError {
  return new AppError('NOT_FOUND', `element ${id} is gone; read the page again`)
}

/**
 * The ids the model has seen, across every read of the session: which tab, and the XPath and text
 * to find the element again when the page re-rendered it.
 */
export class ElementRefs {
  private readonly records = new Map<string, ElementRecord>()
  private issued = 0

  get nextId(): number {
    return this.issued + 1
  }

  remember(page: Page, elements: readonly SnapshotElement[], nextId: number): void {
    for (const element of elements) this.records.set(element.id, { ...element, page })
    this.issued = Math.max(this.issued, nextId - 1)
  }

  /** What the model saw of an element (kind, text, its page's URL), without touching the page. */
  describe(id: string): { kind: InteractiveKind; text: string; url: string } | undefined {
    const record = this.records.get(id)
    if (!record || record.page.isClosed()) return undefined
    return { kind: record.kind, text: record.text, url: record.page.url() }
  }

  kindOf(id: string): InteractiveKind | undefined {
    return this.records.get(id)?.kind
  }

  forgetPage(page: Page): void {
    for (const [id, record] of this.records) if (record.page === page) this.records.delete(id)
  }

  /** The live element for an id, or a clear error the model can act on. */
  async locate(id: string): Promise<LocatedElement> {
    const record = this.records.get(id)
    const number = ID.exec(id)
    if (!record) {
      if (number && Number(number[1]) <= this.issued) throw gone(id)
      throw new AppError(
        'NOT_FOUND',
        `There is no element ${JSON.stringify(id)}; ids look like e12 and come from the page text. Read the page again.`,
      )
    }
    if (record.page.isClosed())
      throw new AppError('NOT_FOUND', `element ${id} was in a tab that is closed; read the page again`)
    const args = {
      id,
      path: record.path,
      frames: record.frames,
      text: record.text,
      tag: tagFromPath(record.path),
    }
    let handle = await elementInPage(record.page, locateElement, args).catch(() => null)
    if (!handle) throw gone(id)
    // Elements of same-origin iframes are acted on from their own frame (hit tests, scrolling).
    const frame = await handle.ownerFrame()
    if (frame && frame !== record.page.mainFrame()) {
      const inFrame = await elementInPage(frame, locateElement, args).catch(() => null)
      if (inFrame) {
        await handle.dispose()
        handle = inFrame
      }
    }
    return { page: record.page, handle, record }
  }
}
