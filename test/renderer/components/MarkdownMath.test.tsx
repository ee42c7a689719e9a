// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Markdown } from '../../../src/renderer/src/components/Markdown'
import { prepareMath } from '../../../src/renderer/src/components/mathText'

describe('LaTeX math in answers', () => {
  afterEach(cleanup)

  it('renders inline and display math with KaTeX (MathML for screen readers)', () => {
    const { container } = render(
      <Markdown text={'Euler: $e^{i\\pi} + 1 = 0$.\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$'} />,
    )
    const inline = container.querySelectorAll('.katex:not(.katex-display .katex)')
    expect(container.querySelector('.katex-display')).not.toBeNull()
    expect(inline.length).toBeGreaterThanOrEqual(1)
    expect(container.querySelector('math annotation')?.textContent).toBe('e^{i\\pi} + 1 = 0')
    expect(container.textContent).not.toContain('$$')
  })

  it('reads \\( \\) and \\[ \\] too; money and code stay text', () => {
    expect(prepareMath('a \\(x^2\\) b \\[y\\]')).toBe('a $x^2$ b $$y$$')
    expect(prepareMath('It costs $5 and $10.')).toBe('It costs \\$5 and \\$10.')
    expect(prepareMath('Only $20 today')).toBe('Only \\$20 today')
    expect(prepareMath('$2^{10}$ and $x$')).toBe('$2^{10}$ and $x$')
    expect(prepareMath('`$5 \\(x\\)` and\n```\n\\[a\\] $1\n```')).toBe(
      '`$5 \\(x\\)` and\n```\n\\[a\\] $1\n```',
    )
    const { container } = render(<Markdown text="It costs $5 and $10." />)
    expect(container.querySelector('.katex')).toBeNull()
    expect(container.textContent).toBe('It costs $5 and $10.')
  })

  it('lets no HTML or script through math or Markdown', () => {
    const hostile = [
      '$<img src=x onerror="window.__pwned=1">$',
      '$\\href{javascript:alert(1)}{click}$',
      '$$\\htmlClass{x}{y}\\url{javascript:alert(2)}$$',
      '<script>window.__pwned=2</script>',
      '<img src=x onerror="window.__pwned=3">',
      '[link](javascript:alert(3))',
    ].join('\n\n')
    const { container } = render(<Markdown text={hostile} />)
    expect(container.querySelector('img, script, iframe')).toBeNull()
    for (const a of container.querySelectorAll('a'))
      expect(a.getAttribute('href') ?? '').not.toMatch(/^javascript:/i)
    // The hostile text is shown as text: no element carries an event handler attribute.
    const handlers = [...container.querySelectorAll('*')].flatMap((el) =>
      [...el.attributes].filter((a) => a.name.toLowerCase().startsWith('on')).map((a) => a.name),
    )
    expect(handlers).toEqual([])
    expect(container.textContent).toContain('<img src=x onerror=')
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined()
  })
})
