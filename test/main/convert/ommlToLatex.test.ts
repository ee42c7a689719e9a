import { describe, expect, it } from 'vitest'
import { ommlToLatex } from '../../../src/main/convert/docx/ommlToLatex'

const ns = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"'
const run = (value: string, normal = false) =>
  `<m:r>${normal ? '<m:rPr><m:nor/></m:rPr>' : ''}<m:t>${value}</m:t></m:r>`
// (α × β ≤ ∞) / 2, then √x and a normal-text unit
const formula = `<m:oMath ${ns}><m:f><m:num>${run('α×β≤∞')}</m:num><m:den>${run('2')}</m:den></m:f>${run('+')}<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e>${run('x')}</m:e></m:rad>${run(' m', true)}</m:oMath>`

describe('ommlToLatex', () => {
  it('spells Greek letters and operators as LaTeX commands by default (display math)', async () => {
    expect(await ommlToLatex(formula)).toBe(
      '\\frac{\\alpha \\times \\beta \\leq \\infty}{2}+\\sqrt{x}\\text{ m}',
    )
  })

  it('keeps them as typed with unicodeSymbols (inline math), structure still LaTeX', async () => {
    expect(await ommlToLatex(formula, { unicodeSymbols: true })).toBe('\\frac{α×β≤∞}{2}+\\sqrt{x}\\text{ m}')
  })
})
