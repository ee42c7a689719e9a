import { describe, expect, it } from 'vitest'
import { convertPdf } from '../../../src/main/convert/pdf/convertPdf'
import { INDEXED_FROM_PAGES, indexPageTreeOnce } from '../../../src/main/convert/pdf/pageTreeIndex'
import type { ConvertContext } from '../../../src/main/convert/types'
import { text, writePdf } from './pdfWriter'

// pdf.js 5 walks the page tree from its root for every page and pushes every kid of a flat tree on each
// walk, so the work per page grew with the page count (20,000 pages: 89 s against 5.5 s for 5,000).
// The work is counted, not timed: pdf.js pushes onto arrays for every kid it visits and every operator
// it reads, so Array.prototype.push calls per page stay flat when page handling is linear.

const pdfOf = (pages: number) =>
  writePdf(
    Array.from({ length: pages }, (_, index) => ({
      content: [text(72, 720, `Entry ${index + 1} of the register`)],
    })),
  )

function contextFor(bytes: Uint8Array): ConvertContext {
  return {
    name: 'many.pdf',
    format: 'pdf',
    bytes,
    keepDataUris: false,
    maxChars: undefined,
    signal: new AbortController().signal,
    warn: () => undefined,
    ocr: () => undefined,
    vision: undefined,
    convertMember: () => Promise.reject(new Error('no members')),
  }
}

async function pushesPerPage(pages: number): Promise<{ perPage: number; markdown: string }> {
  const context = contextFor(pdfOf(pages))
  const native = Array.prototype.push
  let pushes = 0
  Array.prototype.push = function push(this: unknown[], ...items: unknown[]) {
    pushes++
    return native.apply(this, items)
  }
  try {
    const { markdown } = await convertPdf(context)
    return { perPage: pushes / pages, markdown }
  } finally {
    Array.prototype.push = native
  }
}

describe('PDF page tree', () => {
  it('handles pages in linear work: pushes per page do not grow with a flat tree of 4× the pages', async () => {
    const small = await pushesPerPage(120)
    const large = await pushesPerPage(480)
    console.info(
      `pdf.js Array.prototype.push per page: ${small.perPage.toFixed(0)} at 120 pages, ${large.perPage.toFixed(0)} at 480 (without the index: 333 and 694)`,
    )
    expect(large.perPage).toBeLessThan(small.perPage * 1.2)
    expect(large.markdown.split('<!-- Page 480 -->')[1]).toBe('\n\nEntry 480 of the register')
    expect(large.markdown).not.toContain('<!-- Page 481 -->')
    expect(large.markdown).not.toContain('could not be read')
  })

  it('a page listed twice in a large tree loses no page after it', async () => {
    // Page 8's kid names page 7 again. pdf.js's one-pass index stops at the repeat (it takes it for a
    // cycle) and would count 7 pages; its own walk, which the document is read again with, reads all.
    const pages = INDEXED_FROM_PAGES + 20
    const latin1 = Buffer.from(pdfOf(pages)).toString('latin1').replace(' 20 0 R', ' 18 0 R')
    const { markdown } = await convertPdf(contextFor(new Uint8Array(Buffer.from(latin1, 'latin1'))))
    expect(markdown).toContain(`<!-- Page ${pages} -->\n\nEntry ${pages} of the register`)
    expect(markdown).toContain('<!-- Page 8 -->\n\nEntry 7 of the register')
  })

  it('overstates only the root /Count of a large tree, keeping the file length', () => {
    const bytes = pdfOf(INDEXED_FROM_PAGES)
    const before = Buffer.from(bytes).toString('latin1')
    expect(indexPageTreeOnce(bytes)).toBe(INDEXED_FROM_PAGES)
    const after = Buffer.from(bytes).toString('latin1')
    expect(after.length).toBe(before.length)
    expect(after).toContain('/Count 999 >>')
    expect(after.replace('/Count 999 >>', `/Count ${INDEXED_FROM_PAGES} >>`)).toBe(before)
  })

  it('leaves a small tree and a count of nines alone', () => {
    const small = pdfOf(3)
    const copy = Buffer.from(small).toString('latin1')
    expect(indexPageTreeOnce(small)).toBeUndefined()
    expect(Buffer.from(small).toString('latin1')).toBe(copy)
    const nines = pdfOf(9)
    expect(indexPageTreeOnce(nines, 5)).toBeUndefined()
  })
})
