// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { moreBelowHint } from '../../../src/renderer/src/components/moreBelowHint'

function box(scrollHeight: number, clientHeight: number): HTMLElement {
  const element = document.createElement('section')
  Object.defineProperty(element, 'scrollHeight', { value: scrollHeight })
  Object.defineProperty(element, 'clientHeight', { value: clientHeight })
  document.body.append(element)
  return element
}

describe('moreBelowHint', () => {
  it('marks a box whose content runs on below, until it is scrolled to the end', () => {
    const element = box(900, 400)
    const stop = moreBelowHint(element)
    expect(element.hasAttribute('data-more-below')).toBe(true)
    element.scrollTop = 200
    element.dispatchEvent(new Event('scroll'))
    expect(element.hasAttribute('data-more-below')).toBe(true)
    element.scrollTop = 500
    element.dispatchEvent(new Event('scroll'))
    expect(element.hasAttribute('data-more-below')).toBe(false)
    stop?.()
    element.scrollTop = 0
    element.dispatchEvent(new Event('scroll'))
    // Detached: no longer follows the scrolling.
    expect(element.hasAttribute('data-more-below')).toBe(false)
  })

  it('leaves a box that shows everything unmarked', () => {
    const element = box(300, 400)
    moreBelowHint(element)
    expect(element.hasAttribute('data-more-below')).toBe(false)
    expect(moreBelowHint(null)).toBeUndefined()
  })
})
