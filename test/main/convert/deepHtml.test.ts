import { describe, expect, it } from 'vitest'
import { htmlToMarkdown } from '../../../src/main/convert/markdown/htmlToMarkdown'
import { boundHtmlDepth, MAX_HTML_DEPTH } from '../../../src/main/convert/markdown/parseHtml'

describe('HTML nesting bound', () => {
  it('leaves wide, sloppy HTML alone: unclosed <p>, <li>, <tr>, <td> and void tags do not nest', () => {
    const rows = Array.from({ length: 400 }, (_, i) => `<tr><td>r${i}<td>x<br><img src="a.png">`).join('')
    const html = `<body>${'<p>para'.repeat(400)}<ul>${'<li>item'.repeat(400)}</ul><table>${rows}</table><script>${'<div>'.repeat(400)}</script></body>`
    expect(boundHtmlDepth(html)).toEqual({ html, flattened: 0 })
  })

  it('unwraps what is nested deeper than the bound, keeping every text and the tags above it', () => {
    const depth = MAX_HTML_DEPTH + 50
    const html = `<body>${'<div class="d">'.repeat(depth)}deep &amp; <b>bold</b>${'</div>'.repeat(depth)}<p>after</p></body>`
    const bounded = boundHtmlDepth(html)
    expect(bounded.flattened).toBe(depth + 2 - MAX_HTML_DEPTH)
    expect(bounded.html).toContain('deep &amp; bold')
    expect(bounded.html.match(/<div class="d">/g)).toHaveLength(MAX_HTML_DEPTH - 1)
    expect(bounded.html.match(/<\/div>/g)).toHaveLength(MAX_HTML_DEPTH - 1)
  })

  it('100,000 nested <div>s become Markdown with their text and a warning, within a generous 20 s', () => {
    const n = 100_000
    const warnings: string[] = []
    const markdown = htmlToMarkdown(
      `<p>Before.</p>${'<div>'.repeat(n)}Inside.${'</div>'.repeat(n)}<p>After.</p>${'</span>'.repeat(n)}`,
      { dataImages: 'drop', warnings },
    )
    expect(markdown).toBe('Before.\n\nInside.\n\nAfter.')
    expect(warnings).toEqual([
      'the HTML nests elements more than 256 deep: 99,744 deeper elements were unwrapped (their text kept, their formatting and links not)',
    ])
  }, 20_000)
})
