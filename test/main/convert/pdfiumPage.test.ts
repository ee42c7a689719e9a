import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConverter } from '../../../src/main/convert'
import { pageRules } from '../../../src/main/convert/pdf/pageObjects'
import { closePdf, openPdf } from '../../../src/main/convert/pdf/pdfDocument'
import { acquirePdfium, type Pdfium, releasePdfium } from '../../../src/main/convert/pdf/pdfium'
import type { Rule } from '../../../src/main/convert/pdf/rules'
import { textRuns } from '../../../src/main/convert/pdf/textRuns'
import type { TextRun } from '../../../src/main/convert/pdf/types'
import { borderedTable, line, type PdfPage, text, writePdf } from './pdfWriter'

// What PDFium gives the layout code: text runs and ruling lines, read from generated PDFs (US Letter,
// 792 points high, so a baseline at y = 720 is 72 points from the top).
let engine: Pdfium
beforeAll(async () => {
  engine = await acquirePdfium()
})
afterAll(() => releasePdfium(engine))

function onFirstPage<T>(page: PdfPage, read: (pdfPage: number) => T): T {
  const document = openPdf(engine, writePdf([page]))
  const handle = engine.x.FPDF_LoadPage(document.handle, 0)
  try {
    return read(handle)
  } finally {
    engine.x.FPDF_ClosePage(handle)
    closePdf(engine, document)
  }
}

function runsOf(content: string[]): TextRun[] {
  return onFirstPage({ content }, (page) => {
    const textPage = engine.x.FPDFText_LoadPage(page)
    try {
      return textRuns(engine, textPage, 792)
    } finally {
      engine.x.FPDFText_ClosePage(textPage)
    }
  })
}

const rulesOf = (page: PdfPage): Rule[] => onFirstPage(page, (handle) => pageRules(engine, handle, 792))

describe('text runs from PDFium', () => {
  it('are stretches of text in top-down points, with their width, size and weight', () => {
    const [hello, bold] = runsOf([
      text(72, 720, 'Hello World', { size: 12 }),
      text(72, 700, 'Bold words', { bold: true }),
    ])
    expect(hello).toMatchObject({ text: 'Hello World', x: 72, size: 12, bold: false, italic: false })
    expect(hello?.y).toBeCloseTo(72, 3)
    // Helvetica's advances: H e l l o space W o r l d = 5167/1000 em.
    expect(hello?.width).toBeCloseTo(62.0, 1)
    expect(bold).toMatchObject({ text: 'Bold words', size: 10, bold: true })
  })

  it('take their size through the text matrix and the page transformation', () => {
    const runs = runsOf([
      'BT /F1 1 Tf 10 0 0 10 72 700 Tm (Scaled) Tj ET',
      'q 2 0 0 2 0 0 cm BT /F1 9 Tf 36 300 Td (Doubled) Tj ET Q',
    ])
    expect(runs.map((run) => [run.text, run.size, Math.round(run.x), Math.round(run.y)])).toEqual([
      ['Scaled', 10, 72, 92],
      ['Doubled', 18, 72, 192],
    ])
  })

  it('end at a wide gap, a new baseline or size; a narrow gap is a space; rotated text is left out', () => {
    const runs = runsOf([
      'BT /F1 10 Tf 72 700 Td [(Kern)-200(ed) -2000 (far)] TJ ET',
      'BT /F1 10 Tf 72 680 Td (base) Tj 21.7 4 Td /F1 6 Tf (sup) Tj ET',
      'BT /F1 10 Tf 0 1 -1 0 300 300 Tm (Rotated) Tj ET',
    ])
    expect(runs.map((run) => run.text)).toEqual(['Kern ed', 'far', 'base', 'sup'])
    expect(runs[1]?.x).toBeCloseTo(72 + 34.2 + 20, 0)
    expect(runs[3]).toMatchObject({ size: 6 })
    expect(runs[3]?.y).toBeCloseTo(792 - 684, 3)
  })

  it('keep right-to-left text in reading order', () => {
    // Three Hebrew letters drawn leftwards, as a right-to-left producer writes them.
    const pdf = Buffer.from(
      writePdf([{ content: ['BT /F1 10 Tf 300 700 Td (A) Tj -6 0 Td (B) Tj -6 0 Td (C) Tj ET'] }]),
    )
      .toString('latin1')
      .replace(
        '/Encoding /WinAnsiEncoding >>',
        '/Encoding << /Differences [65 /afii57664 /afii57665 /afii57666] >> /FirstChar 65 /LastChar 67 /Widths [600 600 600] >>',
      )
    const document = openPdf(engine, new Uint8Array(Buffer.from(pdf, 'latin1')))
    const page = engine.x.FPDF_LoadPage(document.handle, 0)
    const textPage = engine.x.FPDFText_LoadPage(page)
    const runs = textRuns(engine, textPage, 792)
    engine.x.FPDFText_ClosePage(textPage)
    engine.x.FPDF_ClosePage(page)
    closePdf(engine, document)
    expect(runs).toMatchObject([{ text: 'אבג', x: 288 }])
    expect(runs[0]?.width).toBeCloseTo(18, 3)
  })

  it('take a space drawn under the next glyph for no gap, and keep one that follows a gap', () => {
    // Some producers draw a space under each link: "Aero." then a space, then "[59]" drawn over it.
    const runs = runsOf([
      'BT /F1 10 Tf 72 700 Td (Aero.) Tj ET',
      'BT /F1 10 Tf 95.9 700 Td ( ) Tj ET',
      'BT /F1 10 Tf 96 700 Td ([59]) Tj ET',
      'BT /F1 10 Tf 72 680 Td (1.) Tj ET',
      'BT /F1 10 Tf 84 680 Td ( ) Tj ET',
      'BT /F1 10 Tf 84.1 680 Td (Bill) Tj ET',
    ])
    expect(runs.map((run) => run.text.trim())).toEqual(['Aero.[59]', '1. Bill'])
  })
})

describe('ruling lines from PDFium', () => {
  const h = (at: number, from: number, to: number) => ({ orientation: 'h', at, from, to })
  const near = (rules: Rule[]) =>
    rules.map((rule) => ({
      ...rule,
      at: +rule.at.toFixed(2),
      from: +rule.from.toFixed(2),
      to: +rule.to.toFixed(2),
    }))

  it('are stroked straight lines and thin filled bars; a large fill or a curve is none', () => {
    const rules = rulesOf({
      content: [
        line(72, 600, 300, 600),
        line(320, 700, 320, 500),
        '0 0 1 rg 72 580 200 1.5 re f',
        '72 300 200 100 re f',
        '0.5 w 400 400 m 400 450 450 450 450 400 c S',
      ],
    })
    expect(near(rules)).toEqual([
      h(192, 72, 300),
      { orientation: 'v', at: 320, from: 92, to: 292 },
      h(211.25, 72, 272),
    ])
  })

  it('come through the matrices of the page and of form XObjects', () => {
    const rules = rulesOf({
      content: ['q 1 0 0 1 10 -20 cm', line(72, 600, 172, 600), 'Q'],
      form: { content: [line(0, 0, 100, 0)], matrix: [1, 0, 0, 1, 50, 400] },
    })
    expect(near(rules)).toEqual([h(212, 82, 182), h(392, 50, 150)])
  })

  it('make a bordered table drawn inside a form a Markdown table', async () => {
    const converter = createConverter({ ocr: false })
    const pdf = writePdf([
      {
        content: [text(72, 720, 'Figures drawn in a form')],
        form: {
          content: borderedTable(
            [0, 90, 160],
            [100, 80, 60],
            [
              ['Region', 'Units'],
              ['North', '1,200'],
            ],
          ),
          matrix: [1, 0, 0, 1, 72, 500],
        },
      },
    ])
    const { markdown } = await converter.convert({ name: 'form.pdf', bytes: pdf })
    expect(markdown).toContain('| Region | Units |\n| --- | --- |\n| North | 1,200 |')
  })
})
