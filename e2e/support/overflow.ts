import type { Page } from '@playwright/test'

/** Containers meant to scroll sideways (wide tables, code, diagrams, JSON): their content may be wider. */
const SCROLLERS = '.table-scroll, .code-block pre, .mermaid, .step-json'

/**
 * Everything that sticks out horizontally, as readable lines (empty: nothing does):
 * - the document wider than the window;
 * - a visible element whose shown part (its box cut by clipping ancestors) leaves the viewport;
 * - an element whose content is cut or scrolls sideways, unless it is one of those scrollers or an
 *   ellipsis truncation that shows the full text as a tooltip (`title` on it or an ancestor).
 */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate((scrollers) => {
    const width = document.documentElement.clientWidth
    const problems: string[] = []
    const nameOf = (el: Element) => {
      const cls =
        typeof el.className === 'string' && el.className
          ? `.${el.className.trim().split(/\s+/).join('.')}`
          : ''
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 50)
      return `${el.tagName.toLowerCase()}${cls} "${text}"`
    }
    const overDocument = document.documentElement.scrollWidth - width
    if (overDocument > 0) problems.push(`the document is ${overDocument} px wider than the window`)
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (!(el instanceof HTMLElement) && !(el instanceof SVGSVGElement)) continue
      if (!el.checkVisibility({ visibilityProperty: true })) continue
      const rect = el.getBoundingClientRect()
      if (rect.width === 0 || rect.height === 0) continue
      // Visually hidden text (screen readers only): a 1 px box.
      if (el.closest('.visually-hidden') || (rect.width <= 1 && rect.height <= 1)) continue
      const inScroller = el.parentElement?.closest(scrollers)
      // What shows of the element: its box cut by every ancestor that clips or scrolls sideways (that
      // ancestor's own cut is judged below).
      let [left, right] = [rect.left, rect.right]
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX === 'visible') continue
        const clip = p.getBoundingClientRect()
        left = Math.max(left, clip.left)
        right = Math.min(right, clip.right)
      }
      if (right > left && (left < -0.5 || right > width + 0.5))
        problems.push(`${nameOf(el)} spans ${Math.round(left)}..${Math.round(right)} of ${width} px`)
      if (!(el instanceof HTMLElement) || el.matches(scrollers) || inScroller) continue
      if (['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)) continue
      const cut = el.scrollWidth - el.clientWidth
      if (cut <= 1 || getComputedStyle(el).overflowX === 'visible') continue
      const style = getComputedStyle(el)
      const tooltip = el.closest('[title]') !== null
      if (style.textOverflow === 'ellipsis' && tooltip) continue
      problems.push(`${nameOf(el)} cuts or scrolls ${cut} px of its content sideways`)
    }
    return problems
  }, SCROLLERS)
}
