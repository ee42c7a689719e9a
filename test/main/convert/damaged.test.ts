import { readFileSync } from 'node:fs'
import { unzipSync, zipSync } from 'fflate'
import { afterAll, describe, expect, it } from 'vitest'
import { ConvertError, ConvertResult, createConverter } from '../../../src/main/convert'
import { fixturePath } from '../../support/fixtures'
import { core } from './corpus'

const corpusFile = (name: string) => core.file(name)

const converter = createConverter()
afterAll(() => converter.dispose())

const binaryFormats = [
  'report.docx',
  'sheet.xlsx',
  'sheet.xls',
  'deck.pptx',
  'report.pdf',
  'book.epub',
  'bundle.zip',
  'notebook.ipynb',
  'scan.jpg',
]

/** Deterministic bytes, so a failure can be reproduced. */
function noise(length: number, seed: number): Uint8Array {
  let state = seed
  return Uint8Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    return state & 0xff
  })
}

async function conversionError(name: string, bytes: Uint8Array): Promise<ConvertError> {
  const error = await converter.convert({ name, bytes }).then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error, `${name} should be refused`).toBeInstanceOf(ConvertError)
  return error as ConvertError
}

function expectClearMessage(error: ConvertError, name: string): void {
  expect(error.message).toContain(`"${name}"`)
  expect(error.message).not.toMatch(/\n\s+at |\/work\/|node_modules/)
  expect(error.reason.length).toBeGreaterThan(10)
}

describe('truncated files give a clear error', () => {
  for (const name of binaryFormats) {
    it(`${name} cut to half`, async () => {
      const bytes = corpusFile(name)
      const error = await conversionError(name, bytes.slice(0, Math.floor(bytes.length / 2)))
      expect(error.failure).toBe('damaged')
      expectClearMessage(error, name)
    })
    it(`${name} cut to its first 700 bytes`, async () => {
      const error = await conversionError(name, corpusFile(name).slice(0, 700))
      expect(['damaged', 'not_a_document']).toContain(error.failure)
      expectClearMessage(error, name)
    })
  }
})

describe('corrupted files never hang and never leak a raw error', () => {
  for (const name of binaryFormats) {
    it(`${name} with its middle third overwritten`, async () => {
      const bytes = corpusFile(name).slice()
      const start = Math.floor(bytes.length / 3)
      bytes.set(noise(Math.floor(bytes.length / 3), 7), start)
      const outcome: { result?: ConvertResult; error?: unknown } = await converter
        .convert({ name, bytes })
        .then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        )
      if (outcome.error) {
        expect(outcome.error).toBeInstanceOf(ConvertError)
        expectClearMessage(outcome.error as ConvertError, name)
      } else {
        // Damage confined to parts nobody reads (an embedded image, a font) may leave the text intact.
        expect(ConvertResult.safeParse(outcome.result).success).toBe(true)
      }
    })
  }
})

describe('damaged parts inside intact archives', () => {
  function withPart(name: string, part: string, replace: (data: Uint8Array) => Uint8Array): Uint8Array {
    const files = unzipSync(corpusFile(name))
    const data = files[part]
    if (!data) throw new Error(`${name} has no ${part}`)
    return zipSync({ ...files, [part]: replace(data) })
  }
  const cut = (data: Uint8Array) => data.slice(0, Math.floor(data.length / 2))

  it.each([
    ['report.docx', 'word/document.xml'],
    ['deck.pptx', 'ppt/presentation.xml'],
    ['sheet.xlsx', 'xl/workbook.xml'],
    ['book.epub', 'META-INF/container.xml'],
  ])('%s with %s cut short is refused', async (name, part) => {
    const error = await conversionError(name, withPart(name, part, cut))
    expect(error.failure).toBe('damaged')
    expectClearMessage(error, name)
  })

  it.each([
    ['deck.pptx', 'ppt/slides/slide2.xml'],
    ['sheet.xlsx', 'xl/worksheets/sheet1.xml'],
  ])('%s with %s cut short converts the rest and warns', async (name, part) => {
    const result = await converter.convert({ name, bytes: withPart(name, part, cut) })
    expect(result.warnings.some((warning) => warning.includes(part))).toBe(true)
  })
})

describe('not a document', () => {
  it('refuses random.bin', async () => {
    const error = await conversionError('random.bin', corpusFile('random.bin'))
    expect(error.failure).toBe('not_a_document')
    expect(error.code).toBe('UNSUPPORTED')
    expect(error.message).toBe(
      'Cannot convert "random.bin": the content is not a document format Bureau can read',
    )
  })

  it('refuses random bytes even when named like a document', async () => {
    const error = await conversionError('report.pdf', corpusFile('random.bin'))
    expect(error.failure).toBe('damaged')
    expect(error.message).toContain('not a valid PDF')
  })

  it('refuses an empty file', async () => {
    const error = await conversionError('empty.docx', new Uint8Array())
    expect(error.reason).toBe('the file is empty')
  })
})

describe('a password-protected document', () => {
  // A real .docx encrypted with a password (ECMA-376 agile encryption, see test/fixtures/README.md).
  const encrypted = new Uint8Array(readFileSync(fixturePath('documents', 'encrypted.docx')))

  it('is refused with the advice to remove the password in the program that set it', async () => {
    const error = await conversionError('minutes.docx', encrypted)
    expect(error.failure).toBe('encrypted')
    expect(error.message).toBe(
      'Cannot convert "minutes.docx": the document is password-protected; remove the password in Word (File > Info > Protect) and try again',
    )
    expectClearMessage(error, 'minutes.docx')
    // The same container named as a workbook names Excel.
    expect((await conversionError('budget.xlsx', encrypted)).message).toMatch(/remove the password in Excel/)
  })
})
