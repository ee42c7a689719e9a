import { readdir } from 'node:fs/promises'
import { strToU8, zipSync } from 'fflate'
import { afterAll, describe, expect, it } from 'vitest'
import { ConvertError, createConverter } from '../../../src/main/convert'
import type { OcrEngine } from '../../../src/main/convert/types'
import { describeNeeding } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'
import { CORPUS, core, corpus } from './corpus'

const dirs = tempDirs()
afterAll(() => dirs.cleanup())

const text = (value: string) => new TextEncoder().encode(value)

function fakeOcr(reply: string): OcrEngine & { calls: number } {
  return {
    calls: 0,
    async recognize() {
      this.calls++
      return reply
    },
    async dispose() {},
  }
}

describe('cache by content hash', () => {
  it('serves a repeated conversion from memory and a new converter from the disk cache', async () => {
    const cacheDir = await dirs.make()
    const ocr = fakeOcr('Hello from the scan')
    const first = createConverter({ cacheDir, ocr })
    const bytes = core.file('scan.jpg')
    const a = await first.convert({ name: 'scan.jpg', bytes })
    const b = await first.convert({ name: 'copy.jpg', bytes })
    expect(a.markdown).toContain('Hello from the scan')
    expect(b).toBe(a)
    expect(ocr.calls).toBe(1)
    expect((await readdir(cacheDir)).filter((file) => file.endsWith('.json'))).toHaveLength(1)

    const otherOcr = fakeOcr('should not run')
    const second = createConverter({ cacheDir, ocr: otherOcr })
    expect((await second.convert({ name: 'scan.jpg', bytes })).markdown).toBe(a.markdown)
    expect(otherOcr.calls).toBe(0)
  })

  it('keeps results for different options apart', async () => {
    const converter = createConverter({ ocr: false })
    const bytes = core.file('report.docx')
    const placeholder = await converter.convert({ name: 'a.docx', bytes })
    const kept = await converter.convert({ name: 'a.docx', bytes }, { keepDataUris: true })
    expect(placeholder.markdown).toContain('data:image/png;base64...')
    expect(kept.markdown).toContain('data:image/png;base64,iVBORw0KGgo')
  })

  it('counts real conversions and cache hits, and noCache converts again without storing', async () => {
    const converter = createConverter({ ocr: false })
    const bytes = core.file('report.docx')
    const first = await converter.convert({ name: 'a.docx', bytes })
    expect(converter.stats()).toEqual({ conversions: 1, cacheHits: 0 })
    // maxChars is applied after conversion for docx, so another budget is still a cache hit.
    await converter.convert({ name: 'a.docx', bytes }, { maxChars: 1_000_000 })
    expect(converter.stats()).toEqual({ conversions: 1, cacheHits: 1 })
    const fresh = await converter.convert({ name: 'a.docx', bytes }, { noCache: true })
    expect(fresh.markdown).toBe(first.markdown)
    expect(converter.stats()).toEqual({ conversions: 2, cacheHits: 1 })
    const other = text('# only once')
    await converter.convert({ name: 'b.md', bytes: other }, { noCache: true })
    await converter.convert({ name: 'b.md', bytes: other })
    expect(converter.stats()).toEqual({ conversions: 4, cacheHits: 1 })
  })
})

describe('limits', () => {
  it('refuses a file over the size limit of its format', async () => {
    const converter = createConverter({ limits: { text: { maxBytes: 10 } } })
    const error = await converter
      .convert({ name: 'big.txt', bytes: text('x'.repeat(100)) })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConvertError)
    expect((error as ConvertError).failure).toBe('too_large')
    expect((error as ConvertError).code).toBe('TOO_LARGE')
  })

  it('stops a conversion that runs past its time limit', async () => {
    const slowOcr: OcrEngine = {
      recognize: (_image, { signal }) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        ),
      async dispose() {},
    }
    const converter = createConverter({ ocr: slowOcr, limits: { image: { timeoutMs: 200 } } })
    const error = await converter
      .convert({ name: 'slow.jpg', bytes: core.file('scan.jpg') })
      .catch((e: unknown) => e)
    expect((error as ConvertError).failure).toBe('timeout')
    expect((error as ConvertError).message).toContain('"slow.jpg"')
  })

  it('stops when the caller aborts', async () => {
    const never: OcrEngine = { recognize: () => new Promise(() => {}), async dispose() {} }
    const converter = createConverter({ ocr: never })
    const controller = new AbortController()
    const pending = converter.convert(
      { name: 'scan.png', bytes: core.file('scan.jpg') },
      { signal: controller.signal },
    )
    setTimeout(() => controller.abort(), 20)
    const error = await pending.catch((e: unknown) => e)
    expect((error as ConvertError).failure).toBe('cancelled')
  })

  it('cuts output to the character budget and says so', async () => {
    const converter = createConverter()
    const result = await converter.convert(
      { name: 'page.html', bytes: core.file('page.html') },
      { maxChars: 3000 },
    )
    expect(result.truncated).toBe(true)
    expect(result.markdown.length).toBeLessThanOrEqual(3000)
    expect(result.markdown).toMatch(/truncated: showing \d+ of \d+ characters/)
  })

  it('summarises a large CSV within the budget instead of cutting it blindly', async () => {
    const rows = [
      'id,name,amount',
      ...Array.from({ length: 2000 }, (_, i) => `${i + 1},item ${i + 1},${i * 2}`),
    ]
    const converter = createConverter()
    const result = await converter.convert(
      { name: 'big.csv', bytes: text(rows.join('\n')) },
      { maxChars: 4000 },
    )
    expect(result.truncated).toBe(true)
    expect(result.markdown).toContain('| id | name | amount |')
    expect(result.markdown).toContain('| 2000 | item 2000 | 3998 |')
    expect(result.markdown).toContain('2000 data rows in total')
    expect(result.markdown).not.toContain('[… truncated')
  })
})

describe('images', () => {
  it('uses the vision hook when given, with the file name and type', async () => {
    const seen: string[] = []
    const converter = createConverter({
      ocr: fakeOcr('unused'),
      vision: async (image) => {
        seen.push(`${image.name} ${image.mimeType}`)
        return 'A red square above a blue circle.'
      },
    })
    const result = await converter.convert({ name: 'photos/shape.jpg', bytes: core.file('scan.jpg') })
    expect(seen).toEqual(['shape.jpg image/jpeg'])
    expect(result.markdown).toContain('A red square above a blue circle.')
  })

  it('falls back to OCR with a warning when the vision model fails', async () => {
    const converter = createConverter({
      ocr: fakeOcr('Recognised words'),
      vision: async () => {
        throw new Error('model offline')
      },
    })
    const result = await converter.convert({ name: 'a.jpg', bytes: core.file('scan.jpg') })
    expect(result.markdown).toContain('Recognised words')
    expect(result.warnings.join(' ')).toContain('vision model could not describe')
  })

  it('reads text from an image offline with tesseract', async () => {
    const converter = createConverter()
    try {
      const result = await converter.convert({ name: 'scan.jpg', bytes: core.file('scan.jpg') })
      expect(result.format).toBe('image')
      expect(result.markdown).toContain('Delivery note 5521')
    } finally {
      await converter.dispose()
    }
  }, 120_000)
})

describe('documents', () => {
  const converter = createConverter({ ocr: false })

  it('docx: comments listed at the end, their anchored text marked in the text', async () => {
    const { markdown } = await converter.convert({ name: 'c.docx', bytes: core.file('report.docx') })
    expect(markdown).toContain('{==The South kiln ran for ten months of the year.==}[c0]')
    expect(markdown).toMatch(
      /## Comments\n\n- \[c0\] Ines Varga 2025-01-15: Check the South kiln figure against the ledger\./,
    )
  })

  it('docx: tables become GFM tables with the first row as header', async () => {
    const { markdown } = await converter.convert({ name: 't.docx', bytes: core.file('report.docx') })
    expect(markdown).toMatch(/^\| .+ \|\n\| --- \|/m)
    expect(markdown).toMatch(/^\| South kiln \| 980 \| 14700 \|$/m)
  })

  it('html: drops navigation, scripts and data: images; keeps links and tables', async () => {
    const html = `<html><head><title>T</title><script>var x = 1</script></head><body>
      <nav><a href="/home">Home</a> Menu stuff</nav>
      <main><h1>Report</h1><p>See <a href="https://example.com/a">the source</a>.</p>
      <img src="data:image/png;base64,AAAA" alt="inline">
      <table><tr><td>Name</td><td>Qty</td></tr><tr><td>Pens</td><td>3</td></tr></table></main>
      <footer>Copyright</footer></body></html>`
    const { markdown, title } = await converter.convert({ name: 'p.html', bytes: text(html) })
    expect(title).toBe('T')
    expect(markdown).toContain('# Report')
    expect(markdown).toContain('[the source](https://example.com/a)')
    expect(markdown).toContain('| Name | Qty |\n| --- | --- |\n| Pens | 3 |')
    for (const gone of ['Menu stuff', 'Copyright', 'data:image', 'var x'])
      expect(markdown).not.toContain(gone)
  })

  it('zip: every member under its own heading; members that fail are reported and skipped', async () => {
    const archive = zipSync({
      'notes.md': strToU8('# Notes\n\nHello'),
      'data.csv': strToU8('a,b\n1,2\n'),
      'noise.bin': core.file('random.bin'),
    })
    const result = await converter.convert({ name: 'bundle.zip', bytes: archive })
    expect(result.markdown).toContain('## notes.md\n\n# Notes')
    expect(result.markdown).toContain('## data.csv\n\n| a | b |')
    expect(result.markdown).toContain(
      '## noise.bin\n\n(skipped: the content is not a document format Bureau can read)',
    )
    expect(result.warnings.join(' ')).toContain('noise.bin skipped')
  })

  it('refuses a zip bomb before inflating anything', async () => {
    const archive = zipSync({ 'zeros.txt': new Uint8Array(1000) })
    // Claim a 4 GB member in the central directory (uncompressed size at offset 24 of its header).
    const view = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength)
    const central = view.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    view.writeUInt32LE(0xfffffff0, central + 24)
    const error = await converter.convert({ name: 'bomb.zip', bytes: archive }).catch((e: unknown) => e)
    expect((error as ConvertError).failure).toBe('too_large')
    expect((error as ConvertError).reason).toContain('expands to more than')
  })
})

describe('prepare', () => {
  it('starts choosing who reads pictures when the batch has a file that may hold one, and not otherwise', async () => {
    let asked = 0
    const chooseVision = async () => {
      asked++
      return { kind: 'off' } as const
    }
    const texts = createConverter({ ocr: false, chooseVision })
    texts.prepare?.(['notes.docx', 'table.csv'])
    expect(asked).toBe(0)
    const pictures = createConverter({ ocr: false, chooseVision })
    pictures.prepare?.(['notes.docx', 'scan.pdf'])
    expect(asked).toBe(1)
    await texts.dispose()
    await pictures.dispose()
  })
})

describeNeeding(
  [CORPUS],
  'documents with equations, linked images and charts (markitdown test files)',
  () => {
    const converter = createConverter({ ocr: false })
    afterAll(() => converter.dispose())

    it('docx: equations become LaTeX instead of disappearing', async () => {
      const { markdown } = await converter.convert({ name: 'e.docx', bytes: corpus.file('equations.docx') })
      expect(markdown).toContain('$$sin\\theta=\\frac{m\\lambda}{a}')
      expect(markdown).toContain('$m=1$')
      // Inline math keeps the document's letters and symbols (as pandoc does); its structure stays LaTeX.
      expect(markdown).toContain('$θ={sin}^{-1}\\left( 2.2×{10}^{-4} \\right)=2.2×{10}^{-4}rad$')
    })
    it('docx: a linked (not embedded) image keeps its alt text', async () => {
      const { markdown } = await converter.convert({ name: 'r.docx', bytes: corpus.file('rlink.docx') })
      expect(markdown).toContain(
        '![A red and blue square AI-generated content may be incorrect.](linked-image)',
      )
    })
    it('pptx: slides in order with headings, tables, chart data and alt text', async () => {
      const { markdown } = await converter.convert({ name: 't.pptx', bytes: corpus.file('test.pptx') })
      const slides = [...markdown.matchAll(/^## Slide (\d+)/gm)].map((match) => Number(match[1]))
      expect(slides).toEqual([1, 2, 3, 4, 5, 6])
      expect(markdown).toContain('| ColA | ColB | ColC | ColD | ColE | ColF |')
      expect(markdown).toContain('### Chart: a3f6004b-6f4f-4ea8-bee3-3741f4dc385f')
      expect(markdown).toContain('| 2003 | 2003 |')
      expect(markdown).toContain('* Comment 1')
    })
  },
)
