import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createConverter } from '../../../src/main/convert'
import { defaultCacheDir } from '../../../src/main/platform'
import { assertBuilt, repoRoot, runCli } from '../../support/builtCli'
import { describeNeeding } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'
import { CORPUS, core, corpus } from './corpus'

// The built CLI converts in a CommonJS build of the worker (out/worker), compiled with V8's code cache;
// the other convert tests run the sources. Same Markdown, byte for byte, and a cache that is written
// once, read after, and rebuilt when damaged.
const dirs = tempDirs('bureau-built-worker-')
afterAll(() => dirs.cleanup())

/** Every format once (the project's documents); images are left out (offline OCR takes seconds a page). */
const FILES = [
  'report.docx',
  'report.pdf',
  'sheet.xlsx',
  'sheet.xls',
  'kanji.csv',
  'deck.pptx',
  'page.html',
  'notes.json',
  'notebook.ipynb',
  'feed.xml',
  'book.epub',
  'bundle.zip',
].map((name) => core.path(name))
/** Real-world documents with what the project's own do not have: equations, a borderless table. */
const CORPUS_FILES = ['test_with_comment.docx', 'equations.docx', 'SPARSE-2024-INV-1234_borderless_table.pdf']

const Report = z.object({
  files: z.array(
    z.object({
      file: z.string(),
      ok: z.literal(true),
      format: z.string(),
      title: z.string().nullable(),
      warnings: z.array(z.string()),
      markdown: z.string(),
    }),
  ),
})

const convertBuilt = async (cacheEnv: NodeJS.ProcessEnv, files = FILES) => {
  const result = await runCli(['convert', '--json', ...files], {
    env: { ...cacheEnv, BUREAU_DATA_DIR: await dirs.make() },
    timeoutMs: 120_000,
  })
  expect(result.code, result.stderr).toBe(0)
  return Report.parse(JSON.parse(result.stdout)).files
}

const cacheFiles = (folder: string) =>
  Object.fromEntries(
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.v8'))
      .map((file) => [file, statSync(join(folder, file)).mtimeMs]),
  )

beforeAll(assertBuilt)

/** The built command's Markdown, format and warnings for each file equal the sources'. */
async function expectSameAsSources(files: string[]): Promise<void> {
  const built = await convertBuilt({ BUREAU_CODE_CACHE: await dirs.make() }, files)
  const converter = createConverter()
  try {
    for (const [index, path] of files.entries()) {
      const expected = await converter.convert({ name: path, bytes: new Uint8Array(readFileSync(path)) })
      const entry = built[index]
      expect(entry?.format, path).toBe(expected.format)
      expect(entry?.markdown, path).toBe(expected.markdown)
      expect(entry?.warnings, path).toEqual(expected.warnings)
    }
  } finally {
    await converter.dispose()
  }
}

describeNeeding([CORPUS], 'the built conversion worker on real-world documents', () => {
  it('writes the Markdown the sources write', async () => {
    await expectSameAsSources(CORPUS_FILES.map((name) => corpus.path(name)))
  }, 120_000)
})

describe('the built conversion worker', () => {
  it('writes the Markdown the sources write, for every format', async () => {
    await expectSameAsSources(FILES)
  }, 180_000)

  // The test above runs the sources, which load the real JSZip and xmlbuilder, against this build, which
  // has neither (mammothUnusedDeps.ts): the same Markdown shows the worker never needed them.
  it("is all ASCII, leaves out mammoth's JSZip and xmlbuilder, imports nothing dynamically, embeds no wasm", () => {
    assertBuilt()
    const dir = join(repoRoot, 'out', 'worker')
    const chunks = readdirSync(dir).filter((name) => name.endsWith('.cjs'))
    expect(chunks.length).toBeGreaterThan(5)
    for (const name of chunks) {
      const source = readFileSync(join(dir, name), 'latin1')
      const nonAscii = [...source].findIndex((ch) => ch.charCodeAt(0) > 0x7f)
      expect(nonAscii, `${name} has a non-ASCII character`).toBe(-1)
      expect(source, name).not.toContain('has been removed in JSZip 3.0')
      expect(source, name).not.toContain('XMLStringWriter')
      // A script compiled from the code cache has no dynamic-import callback on Node 20.
      expect(source, `${name} has a dynamic import()`).not.toMatch(/\bimport\(/)
      // PDFium's .wasm is read from node_modules at run time, not carried in a chunk (base64 of "\0asm").
      expect(source, `${name} embeds a WebAssembly module`).not.toContain('AGFzbQ')
    }
  })

  it('writes its code cache once, reads it after, and rebuilds a damaged file', async () => {
    const cache = await dirs.make()
    const docx = [core.path('report.docx'), core.path('report.pdf')]
    const first = await convertBuilt({ BUREAU_CODE_CACHE: cache }, docx)
    const written = cacheFiles(cache)
    const names = Object.keys(written).map((file) => basename(file))
    // The worker, the Word and PDF converters and their libraries (mammoth in the Word converter's,
    // PDFium's glue in the PDF converter's; domino and turndown are not loaded for these files).
    for (const chunk of [/^convertWorker-/, /^docx-/, /^convertPdf-/])
      expect(
        names.some((name) => chunk.test(name)),
        `${chunk} in ${names.join(', ')}`,
      ).toBe(true)

    const second = await convertBuilt({ BUREAU_CODE_CACHE: cache }, docx)
    expect(second).toEqual(first)
    expect(cacheFiles(cache)).toEqual(written)

    // Damaged in the middle (V8 alone would run such bytes and crash the process): compiled from
    // source, the same Markdown, the file written again.
    const docxCache = join(cache, Object.keys(written).find((file) => /docx-/.test(file)) as string)
    const bytes = readFileSync(docxCache)
    for (let at = Math.floor(bytes.length / 3); at < bytes.length; at += 5)
      bytes[at] = (bytes[at] ?? 0) ^ 0xa5
    writeFileSync(docxCache, bytes)
    expect(await convertBuilt({ BUREAU_CODE_CACHE: cache }, docx)).toEqual(first)
    expect(readFileSync(docxCache).equals(bytes)).toBe(false)
    expect(await convertBuilt({ BUREAU_CODE_CACHE: cache }, docx)).toEqual(first)
  }, 120_000)

  it('keeps the cache in the OS cache folder, and nowhere when it is off', async () => {
    const home = await dirs.make()
    const env = { HOME: home, USERPROFILE: home, XDG_CACHE_HOME: home, LOCALAPPDATA: home }
    await convertBuilt({ BUREAU_CODE_CACHE: '', ...env }, [core.path('notes.json')])
    expect(Object.keys(cacheFiles(join(defaultCacheDir(env), 'code'))).length).toBeGreaterThan(0)

    const off = await dirs.make()
    const offEnv = { HOME: off, USERPROFILE: off, XDG_CACHE_HOME: off, LOCALAPPDATA: off }
    await convertBuilt({ BUREAU_CODE_CACHE: 'off', ...offEnv }, [core.path('notes.json')])

    expect(readdirSync(off)).toEqual([])
    // Not taken for a folder named `off` where the command ran either.
    expect(existsSync(join(repoRoot, 'off'))).toBe(false)
  }, 60_000)
})
