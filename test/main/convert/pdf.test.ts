import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createConverter } from '../../../src/main/convert'
import { describeNeeding } from '../../support/requirements'
import { CORPUS, corpus, wordRecall } from './corpus'
import { markdownTables, tableRowRecall } from './markdownTables'

const converter = createConverter()
afterAll(() => converter.dispose())

function expected(name: string): string {
  return readFileSync(join(corpus.dir, 'expected', `${name}.md`), 'utf8')
}

async function convert(name: string): Promise<string> {
  return (await converter.convert({ name: `${name}.pdf`, bytes: corpus.file(`${name}.pdf`) })).markdown
}

// Real-world PDFs (microsoft/markitdown's test files) against their reference Markdown.
describeNeeding([CORPUS], 'PDF conversion of the markitdown test files', () => {
  describe('PDF tables rebuilt from aligned text', () => {
    it.each([
      ['REPAIR-2022-INV-001_multipage', 6],
      ['SPARSE-2024-INV-1234_borderless_table', 2],
      ['movie-theater-booking-2024', 6],
    ])('%s: the expected tables come out as Markdown tables', async (name, minTables) => {
      const markdown = await convert(name)
      const wanted = markdownTables(expected(name))
      const actual = markdownTables(markdown)
      expect(actual.length).toBeGreaterThanOrEqual(minTables)
      // Every expected row's non-empty cells appear together in one of our rows (spacer columns aside).
      expect(tableRowRecall(wanted, actual)).toBeGreaterThanOrEqual(0.95)
      expect(wordRecall(expected(name), markdown)).toBeGreaterThanOrEqual(0.98)
    })

    it('keeps the borderless table rows and their sparse cells in the right columns', async () => {
      const markdown = await convert('SPARSE-2024-INV-1234_borderless_table')
      expect(markdown).toContain('| Product Code | Location | Expected | Actual | Variance | Status |')
      expect(markdown).toContain('|  | B-07 |  | 289 | -23 |  |')
      expect(markdown).toContain('| SKU-4563 | Software | $120.00 | $18,720.00 |  | Critical |')
    })

    it('keeps the bordered estimate table with label/value pairs per row', async () => {
      const markdown = await convert('REPAIR-2022-INV-001_multipage')
      expect(markdown).toContain('| Insured name | Gabriel Diaz | Year | 2022 |')
      expect(markdown).toContain('| Body Labor | 2 | 150 | 300 |')
    })
  })

  describe('PDF text without tables', () => {
    it.each(['RECEIPT-2024-TXN-98765_retail_purchase', 'test'])(
      '%s keeps the words of the reference',
      async (name) => {
        const markdown = await convert(name)
        expect(markdownTables(markdown)).toHaveLength(0)
        expect(wordRecall(expected(name), markdown)).toBeGreaterThanOrEqual(0.98)
      },
    )

    it('infers headings from the type scale and marks pages', async () => {
      const sparse = await convert('SPARSE-2024-INV-1234_borderless_table')
      expect(sparse).toMatch(/^# INVENTORY RECONCILIATION REPORT$/m)
      expect(sparse).toMatch(/^#+ Extended Inventory Review:$/m)
      expect(sparse).toContain('<!-- Page 2 -->')
      const paper = await convert('test')
      expect(paper).toMatch(/^# 1 Introduction$/m)
    })

    it('joins wrapped lines into paragraphs', async () => {
      const paper = await convert('test')
      expect(paper).toContain(
        'While there is contemporaneous exploration of multi-agent approaches,3 we present AutoGen, a generalized multi-agent conversation framework',
      )
    })

    it('keeps a numbering marker set apart by a tab stop with its text, hanging indents joined', async () => {
      const markdown = await convert('masterformat_partial_numbering')
      expect(markdown).toMatch(/^(#+ )?1\. INTENT$/m)
      expect(markdown).toContain(
        '.1 The intent of this Request for Proposal (RFP) is to solicit submissions, in the format detailed in this document',
      )
    })
  })

  describe('scanned PDF pages', () => {
    it('goes through offline OCR when a page has no text layer', async () => {
      const result = await converter.convert({
        name: 'MEDRPT-2024-PAT-3847_medical_report_scan.pdf',
        bytes: corpus.file('MEDRPT-2024-PAT-3847_medical_report_scan.pdf'),
      })
      expect(result.markdown).toContain('Text recognised by OCR (page 1)')
      expect(result.markdown).toContain('PATIENT INFORMATION')
      expect(result.markdown).toContain('MEDRPT-2024-PAT-3847')
      expect(result.markdown).toContain('<!-- Page 3 -->')
    }, 240_000)

    it('says so instead of failing when OCR is turned off', async () => {
      const noOcr = createConverter({ ocr: false })
      const result = await noOcr.convert({
        name: 'scan.pdf',
        bytes: corpus.file('MEDRPT-2024-PAT-3847_medical_report_scan.pdf'),
      })
      expect(result.markdown).toContain('scanned image; text recognition is off')
      expect(result.warnings.some((warning) => warning.includes('no text layer'))).toBe(true)
    })
  })

  describe('scanned PDF pages with a vision model', () => {
    it('sends each page as a PNG to the vision hook', async () => {
      const seen: { name: string; mimeType: string; signature: string }[] = []
      const withVision = createConverter({
        ocr: false,
        vision: async (image) => {
          seen.push({
            name: image.name,
            mimeType: image.mimeType,
            signature: Buffer.from(image.bytes.subarray(1, 4)).toString(),
          })
          return `Transcript ${seen.length}`
        },
      })
      const result = await withVision.convert({
        name: 'scan.pdf',
        bytes: corpus.file('MEDRPT-2024-PAT-3847_medical_report_scan.pdf'),
      })
      expect(seen.map((entry) => entry.name)).toEqual([
        'scan.pdf page 1.png',
        'scan.pdf page 2.png',
        'scan.pdf page 3.png',
      ])
      expect(seen.every((entry) => entry.mimeType === 'image/png' && entry.signature === 'PNG')).toBe(true)
      expect(result.markdown).toContain('*Page 2 read by the vision model:*\n\nTranscript 2')
    })
  })
})
