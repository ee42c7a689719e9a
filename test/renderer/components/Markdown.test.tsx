// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Markdown } from '../../../src/renderer/src/components/Markdown'

const text = `# Report

| Region | Sales |
| --- | ---: |
| North | 120 |
| South | 80 |

- [x] done
- [ ] open

~~old~~ and \`inline\` and https://example.com

\`\`\`python
print("hi")
\`\`\`
`

describe('Markdown', () => {
  afterEach(cleanup)

  it('renders GFM tables, task lists, strikethrough and autolinks', () => {
    const { container } = render(<Markdown text={text} />)
    expect(screen.getByRole('heading', { level: 1 })?.textContent).toMatch('Report')
    const table = screen.getByRole('table')
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Region', 'Sales'])
    expect(
      within(table)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['North', '120', 'South', '80'])
    const boxes = screen.getAllByRole('checkbox') as HTMLInputElement[]
    expect(boxes.map((b) => b.checked)).toEqual([true, false])
    expect(container.querySelector('del')?.textContent).toBe('old')
    const link = screen.getByRole('link', { name: 'https://example.com' })
    expect(link.getAttribute('target')).toBe('_blank')
    expect(link.getAttribute('rel')).toContain('noopener')
  })

  it('renders fenced code as a block with its language and a Copy button, inline code inline', () => {
    const { container } = render(<Markdown text={text} />)
    expect(container.querySelector('.code-language')?.textContent).toBe('python')
    expect(container.querySelector('pre code')?.textContent).toBe('print("hi")')
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeTruthy()
    expect(container.querySelector('p code')?.textContent).toBe('inline')
  })

  it('keeps an unfinished Mermaid diagram as code while the answer streams', () => {
    const { container } = render(<Markdown text={'```mermaid\ngraph TD; A-->B\n```'} streaming />)
    expect(container.querySelector('.code-language')?.textContent).toBe('mermaid')
    expect(container.querySelector('.mermaid')).toBeNull()
  })

  it('does not render raw HTML from the model', () => {
    const { container } = render(
      <Markdown text={'<img src=x onerror="alert(1)"> <script>alert(1)</script>'} />,
    )
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('script')).toBeNull()
  })
})
