import { describe, expect, it } from 'vitest'
import { createConverter } from '../../../src/main/convert'
import { borderedTable, text, writePdf } from './pdfWriter'

const converter = createConverter({ ocr: false })

async function convert(content: string[]): Promise<string> {
  return (await converter.convert({ name: 'layout.pdf', bytes: writePdf([{ content }]) })).markdown
}

const words = (prefix: string, from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${from + i}`).join(' ')

describe('PDF layout', () => {
  it('rebuilds a bordered table from its ruling lines, tight cell padding included', async () => {
    const markdown = await convert([
      text(72, 720, 'Quarterly figures', { size: 16, bold: true }),
      ...borderedTable(
        [72, 160, 230, 300],
        [700, 680, 660, 640],
        [
          ['Region', 'Units', 'Revenue'],
          ['North America', '1,200', '$4.5M'],
          ['Europe', '', '$3.1M'],
        ],
      ),
      text(72, 600, 'Figures are unaudited and may change before the annual report is published.'),
    ])
    expect(markdown).toContain('# Quarterly figures')
    expect(markdown).toContain(
      '| Region | Units | Revenue |\n| --- | --- | --- |\n| North America | 1,200 | $4.5M |\n| Europe |  | $3.1M |',
    )
    expect(markdown).toContain('Figures are unaudited')
  })

  it('reads two text columns one after the other instead of line by line across', async () => {
    const content = [text(72, 740, 'Two columns', { size: 18, bold: true })]
    for (let row = 0; row < 12; row++) {
      const y = 700 - row * 14
      content.push(
        text(72, y, `left ${words('a', row * 6, 6)} end`),
        text(320, y, `right ${words('b', row * 6, 6)} end`),
      )
    }
    const markdown = await convert(content)
    const lastLeft = markdown.indexOf('a71')
    const firstRight = markdown.indexOf('b0')
    expect(lastLeft).toBeGreaterThan(0)
    expect(firstRight).toBeGreaterThan(lastLeft)
    expect(markdown).not.toMatch(/^\|/m)
  })

  it('turns bullets and numbers into list items and bold lines into headings', async () => {
    const markdown = await convert([
      text(72, 720, 'Findings', { bold: true }),
      text(72, 700, '• Revenue grew in every region this year, led by the new'),
      text(82, 688, 'subscription plans that launched in the spring.'),
      text(72, 672, '• Costs stayed flat.'),
      text(72, 650, '1. Review the pricing.'),
      text(72, 636, '2. Hire two engineers.'),
    ])
    expect(markdown).toMatch(/^#+ Findings$/m)
    expect(markdown).toContain(
      '* Revenue grew in every region this year, led by the new subscription plans that launched in the spring.',
    )
    expect(markdown).toContain('* Costs stayed flat.')
    expect(markdown).toContain('1. Review the pricing.\n\n2. Hire two engineers.')
  })
})

describe('PDF images', () => {
  it('decodes images only for pages without text, and reads those pages in order', async () => {
    const seen: { name: string; width: number; height: number }[] = []
    const withVision = createConverter({
      ocr: false,
      vision: async (image) => {
        // PNG IHDR: width and height are the big-endian words at bytes 16 and 20.
        const view = new DataView(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength)
        seen.push({ name: image.name, width: view.getUint32(16), height: view.getUint32(20) })
        return `Transcript of ${image.name}`
      },
    })
    const pdf = writePdf([
      {
        content: [text(72, 700, 'A page with text over a large picture')],
        image: { width: 300, height: 260 },
      },
      { content: [], image: { width: 240, height: 220 } },
      { content: [text(72, 700, 'Closing words')] },
      { content: [], image: { width: 210, height: 230 } },
    ])
    const result = await withVision.convert({ name: 'mixed.pdf', bytes: pdf })
    expect(seen).toEqual([
      { name: 'mixed.pdf page 2.png', width: 240, height: 220 },
      { name: 'mixed.pdf page 4.png', width: 210, height: 230 },
    ])
    expect(result.markdown).toContain('A page with text over a large picture')
    expect(result.markdown).toMatch(
      /<!-- Page 2 -->\s+\*Page 2 read by the vision model:\*\s+Transcript of mixed\.pdf page 2\.png/,
    )
    expect(result.markdown).toContain('Transcript of mixed.pdf page 4.png')
  })
})
