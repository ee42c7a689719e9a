import { constants, deflateSync, inflateSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { ConvertError, createConverter } from '../../../src/main/convert'
import { convertPdf } from '../../../src/main/convert/pdf/convertPdf'
import {
  acquirePdfium,
  holding,
  pdfiumStats,
  releasePdfium,
  setRetireHeapBytes,
} from '../../../src/main/convert/pdf/pdfium'
import type { ConvertContext } from '../../../src/main/convert/types'
import { borderedTable, text, writePdf } from './pdfWriter'

const converter = createConverter({ ocr: false })
afterAll(() => converter.dispose())

async function refusal(name: string, bytes: Uint8Array): Promise<ConvertError> {
  const error = await converter.convert({ name, bytes }).then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(ConvertError)
  return error as ConvertError
}

describe('PDF documents through PDFium', () => {
  it('take their title from the document information, unless it only repeats the file name', async () => {
    const page = { content: [text(72, 720, 'Body text')] }
    const titled = await converter.convert({
      name: 'q3.pdf',
      bytes: writePdf([page], { title: 'Quarterly Report' }),
    })
    expect(titled.title).toBe('Quarterly Report')
    const named = await converter.convert({ name: 'q3.pdf', bytes: writePdf([page], { title: 'q3' }) })
    expect(named.title).toBeUndefined()
  })

  it('refuse a PDF locked with a password, and read one that only has an owner password', async () => {
    const page = { content: [text(72, 720, 'Minutes of the board meeting')] }
    const locked = writePdf([page], { encrypt: { user: 'secret', owner: 'boss' } })
    const error = await refusal('locked.pdf', locked)
    expect(error.failure).toBe('encrypted')
    expect(error.message).toBe('Cannot convert "locked.pdf": the PDF is password-protected')
    const ownerOnly = writePdf([page], { title: 'Board', encrypt: { user: '', owner: 'boss' } })
    const result = await converter.convert({ name: 'owner.pdf', bytes: ownerOnly })
    expect(result.markdown).toContain('Minutes of the board meeting')
    expect(result.title).toBe('Board')
  })

  it('refuse bytes that are no PDF structure, and convert the pages that load', async () => {
    const garbage = new Uint8Array(Buffer.from(`%PDF-1.7\n${'garbage '.repeat(200)}`, 'latin1'))
    const error = await refusal('broken.pdf', garbage)
    expect(error.failure).toBe('damaged')
    expect(error.reason).toBe('the PDF structure is invalid or truncated')

    const pages = ['First', 'Second', 'Third'].map((word) => ({ content: [text(72, 720, `${word} page`)] }))
    const whole = Buffer.from(writePdf(pages)).toString('latin1')
    // The second kid names an object the file does not have.
    const kids = /\/Kids \[(\d+) 0 R (\d+) 0 R (\d+) 0 R\]/.exec(whole)
    const damaged = whole.replace(kids?.[0] ?? '', `/Kids [${kids?.[1]} 0 R 999 0 R ${kids?.[3]} 0 R]`)
    const result = await converter.convert({
      name: 'pages.pdf',
      bytes: new Uint8Array(Buffer.from(damaged, 'latin1')),
    })
    expect(result.markdown).toBe(
      '<!-- Page 1 -->\n\nFirst page\n\n<!-- Page 2 -->\n\n(page 2 could not be read)\n\n<!-- Page 3 -->\n\nThird page',
    )
    expect(result.warnings).toEqual(['page 2 could not be read'])
  })

  it('warn when the end-of-file marker is missing, keeping what was read', async () => {
    const complete = Buffer.from(writePdf([{ content: [text(72, 720, 'Everything before the end')] }]))
    const cut = complete.subarray(0, complete.lastIndexOf('%%EOF'))
    const result = await converter.convert({ name: 'cut.pdf', bytes: new Uint8Array(cut) })
    expect(result.markdown).toBe('Everything before the end')
    expect(result.warnings).toEqual([
      'the PDF looks truncated (no end-of-file marker); some content may be missing',
    ])
  })

  it('hand a scanned page to the vision model as a PNG with its colours in RGB order', async () => {
    const width = 200
    const height = 210
    const rgb = new Uint8Array(width * height * 3)
    for (let at = 0; at < rgb.length; at += 3) rgb.set(at % 2 ? [0, 32, 255] : [255, 16, 0], at)
    let png: Uint8Array | undefined
    const withVision = createConverter({
      ocr: false,
      vision: async (image) => {
        png = image.bytes
        return 'A red and blue pattern'
      },
    })
    const result = await withVision.convert({
      name: 'scan.pdf',
      bytes: writePdf([{ content: [], image: { width, height, rgb } }]),
    })
    expect(result.markdown).toContain('A red and blue pattern')
    const bytes = Buffer.from(png ?? new Uint8Array())
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20), bytes[25]]).toEqual([width, height, 2])
    // IDAT follows IHDR (8 + 25 bytes); each row starts with its filter byte.
    const idat = bytes.subarray(41, 41 + bytes.readUInt32BE(33))
    const rows = inflateSync(idat)
    expect(rows[0]).toBe(0)
    expect(Buffer.from(rows.subarray(1, 1 + width * 3)).equals(Buffer.from(rgb.subarray(0, width * 3)))).toBe(
      true,
    )
  })
})

function context(name: string, bytes: Uint8Array): ConvertContext {
  return {
    name,
    format: 'pdf',
    bytes,
    keepDataUris: false,
    maxChars: undefined,
    signal: new AbortController().signal,
    warn: () => {},
    ocr: () => undefined,
    vision: undefined,
    convertMember: async () => {
      throw new Error('a PDF has no members')
    },
  }
}

/** Where the engine's allocator puts a fresh megabyte: it moves up when something was left allocated. */
async function freshBlock(): Promise<number> {
  const engine = await acquirePdfium()
  try {
    const block = engine.x.malloc(1 << 20)
    engine.x.free(block)
    return block
  } finally {
    releasePdfium(engine)
  }
}

describe("the PDF engine's memory", () => {
  it('is given back: document, pages, text pages, bitmaps and buffers freed after every conversion', async () => {
    // Text, a bordered table, a scanned page (its image is decoded), a form, a title.
    const pdf = writePdf(
      [
        {
          content: [
            text(72, 720, 'Heading', { size: 16, bold: true }),
            ...borderedTable(
              [72, 160, 230],
              [700, 680, 660],
              [
                ['a', 'b'],
                ['c', 'd'],
              ],
            ),
          ],
        },
        { content: [], image: { width: 300, height: 300 } },
        {
          content: [text(72, 720, 'Last page')],
          form: { content: ['0.5 w 0 0 m 100 0 l S'], matrix: [1, 0, 0, 1, 50, 400] },
        },
      ],
      { title: 'Probe' },
    )
    for (let run = 0; run < 20; run++) await convertPdf(context('probe.pdf', pdf))
    const before = { block: await freshBlock(), stats: pdfiumStats() }
    for (let run = 0; run < 100; run++) await convertPdf(context('probe.pdf', pdf))
    // Leaving the document's bytes allocated moved this block up by ~2 MB in 100 runs; a text page, 0.4 MB.
    expect({ block: await freshBlock(), stats: pdfiumStats() }).toEqual(before)
  })

  it('is dropped with its instance once a document grew it past the limit', async () => {
    setRetireHeapBytes(64 * 2 ** 20)
    try {
      await convertPdf(context('small.pdf', writePdf([{ content: [text(72, 720, 'Small')] }])))
      const { instances } = pdfiumStats()
      // A content stream of 96 MiB of spaces: PDFium inflates it into its memory.
      const spaces = deflateSync(Buffer.alloc(96 * 2 ** 20, 0x20), { level: constants.Z_BEST_SPEED })
      await convertPdf(context('big.pdf', writePdf([{ content: [], deflated: spaces }])))
      expect(pdfiumStats()).toEqual({ instances, heapBytes: undefined })
      const { markdown } = await convertPdf(
        context('next.pdf', writePdf([{ content: [text(72, 720, 'The next document')] }])),
      )
      expect(markdown).toBe('The next document')
      expect(pdfiumStats().instances).toBe(instances + 1)
      expect(pdfiumStats().heapBytes).toBeLessThan(64 * 2 ** 20)
    } finally {
      setRetireHeapBytes(undefined)
    }
  })

  it('is not touched again after a trap: nothing is freed in it, and the next conversion gets a new instance', async () => {
    const engine = await acquirePdfium()
    const { instances } = pdfiumStats()
    let freed = false
    expect(() =>
      holding(
        engine,
        () => {
          throw new WebAssembly.RuntimeError('unreachable')
        },
        () => {
          freed = true
        },
      ),
    ).toThrow(WebAssembly.RuntimeError)
    expect([engine.broken, freed]).toEqual([true, false])
    releasePdfium(engine)
    const { markdown } = await convertPdf(
      context('after.pdf', writePdf([{ content: [text(72, 720, 'After the failure')] }])),
    )
    expect(markdown).toBe('After the failure')
    expect(pdfiumStats().instances).toBe(instances + 1)
    // An ordinary error leaves the engine as it was and frees what was held.
    const fresh = await acquirePdfium()
    expect(() =>
      holding(
        fresh,
        () => {
          throw new Error('a bug of ours')
        },
        () => {
          freed = true
        },
      ),
    ).toThrow('a bug of ours')
    expect([fresh.broken, freed]).toEqual([false, true])
    releasePdfium(fresh)
  })
})
