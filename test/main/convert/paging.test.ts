import { describe, expect, it } from 'vitest'
import { markdownPage, pageStarts } from '../../../src/main/convert/toolset/paging'

function pages(markdown: string, maxChars: number): string[] {
  const first = markdownPage(markdown, maxChars, 1)
  const out: string[] = []
  for (let page = 1; page <= (first?.pages ?? 0); page++)
    out.push(markdownPage(markdown, maxChars, page)?.text ?? '')
  return out
}

describe('Markdown pages', () => {
  const paragraphs = Array.from(
    { length: 40 },
    (_, i) => `Paragraph ${i} ${'word '.repeat(20 + (i % 7) * 9)}`,
  )
  const markdown = paragraphs.join('\n\n')

  it('join back to the Markdown exactly, each within max_chars', () => {
    const parts = pages(markdown, 1000)
    expect(parts.length).toBeGreaterThan(3)
    expect(parts.join('')).toBe(markdown)
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(1000)
  })

  it('end after a blank line, so a paragraph is not split', () => {
    for (const part of pages(markdown, 1000).slice(0, -1)) expect(part.endsWith('\n\n')).toBe(true)
  })

  it('end at a line break when there is no blank line (table rows stay whole)', () => {
    const table = [
      '| a | b |',
      '| --- | --- |',
      ...Array.from({ length: 200 }, (_, i) => `| ${i} | row ${i} |`),
    ]
    const parts = pages(table.join('\n'), 1000)
    for (const part of parts.slice(0, -1)) expect(part.endsWith('|\n')).toBe(true)
    expect(parts.join('')).toBe(table.join('\n'))
  })

  it('end after a word when a paragraph is longer than a page', () => {
    const paragraph = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ')
    const parts = pages(paragraph, 1000)
    expect(parts.length).toBeGreaterThan(2)
    for (const part of parts.slice(0, -1)) expect(part).toMatch(/word\d+ $/)
    expect(parts.join('')).toBe(paragraph)
  })

  it('cut a line without breaks at max_chars, never inside a surrogate pair', () => {
    const line = `${'x'.repeat(999)}👋${'y'.repeat(1500)}`
    const parts = pages(line, 1000)
    expect(parts[0]).toBe('x'.repeat(999))
    expect(parts[1]?.startsWith('👋')).toBe(true)
    expect(parts.join('')).toBe(line)
  })

  it('a short document is one page; a page past the end is undefined', () => {
    expect(pageStarts('short', 1000)).toEqual([0])
    expect(markdownPage('short', 1000, 1)).toEqual({ text: 'short', page: 1, pages: 1 })
    expect(markdownPage('short', 1000, 2)).toBeUndefined()
    expect(markdownPage('', 1000, 1)).toEqual({ text: '', page: 1, pages: 1 })
  })
})
