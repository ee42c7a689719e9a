import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { runCliInProcess } from '../../support/inProcessCli'
import { corpusDir, vectors } from './corpus'

const corpus = (name: string) => join(corpusDir, name)

const JsonReport = z.object({
  files: z.array(
    z.union([
      z.object({
        file: z.string(),
        ok: z.literal(true),
        format: z.string(),
        markdown: z.string(),
        warnings: z.array(z.string()),
      }),
      z.object({
        file: z.string(),
        ok: z.literal(false),
        error: z.object({ code: z.string(), failure: z.string(), message: z.string() }),
      }),
    ]),
  ),
})

describe('bureau convert', () => {
  it('prints the Markdown of one file, exit 0', async () => {
    const result = await runCliInProcess(['convert', corpus('test_mskanji.csv')])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('| 佐藤太郎 | 30 | 東京 |')
    expect(result.stderr).toContain('decoded as shift_jis')
  })

  it('converts a batch with a marker per file', async () => {
    const result = await runCliInProcess(['convert', corpus('test.json'), corpus('test_notebook.ipynb')])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/<!-- file: .*test\.json \(json\) -->/)
    expect(result.stdout).toMatch(/<!-- file: .*test_notebook\.ipynb \(ipynb\) -->/)
  })

  it('--json reports each file; one failure makes the exit code 1', async () => {
    const result = await runCliInProcess(['convert', '--json', corpus('test.json'), corpus('random.bin')])
    expect(result.code).toBe(1)
    const report = JsonReport.parse(JSON.parse(result.stdout))
    expect(report.files.map((file) => file.ok)).toEqual([true, false])
    const failed = report.files[1]
    expect(failed && !failed.ok && failed.error.failure).toBe('not_a_document')
    expect(result.stderr).toContain('1 of 2 files could not be converted')
  })

  it('--keep-data-uris and --max-chars reach the converter', async () => {
    const kept = await runCliInProcess(['convert', '--keep-data-uris', corpus('test.docx')])
    expect(kept.stdout).toContain('data:image/png;base64,iVBORw0KGgoAAAANSU')
    const cut = await runCliInProcess(['convert', '--max-chars', '500', corpus('test_wikipedia.html')])
    expect(cut.code).toBe(0)
    expect(cut.stdout.trim().length).toBeLessThanOrEqual(500)
  })

  it('names a missing file and exits 1; usage errors exit 2', async () => {
    const missing = await runCliInProcess(['convert', 'no/such/file.pdf'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('Cannot convert "file.pdf": file not found')
    expect((await runCliInProcess(['convert'])).code).toBe(2)
    expect((await runCliInProcess(['convert', '--max-chars', 'many', corpus('test.json')])).code).toBe(2)
    expect((await runCliInProcess(['convert', '--max-chars', '0', corpus('test.json')])).code).toBe(2)
  })
})

describe('bureau convert with the bundled converters', () => {
  // The build bundles the converters' libraries (PDFium's glue, mammoth, turndown, SheetJS...)
  // into lazy chunks; the in-process vector tests run the sources, so the built command is checked too.
  it('passes every corpus vector in one batch', async () => {
    const run = async (vectorList: typeof vectors.general, flags: string[]) => {
      const result = await runCliInProcess(
        ['convert', '--json', ...flags, ...vectorList.map((v) => corpus(v.filename))],
        {
          timeoutMs: 240_000,
        },
      )
      const report = JsonReport.parse(JSON.parse(result.stdout))
      for (const [index, vector] of vectorList.entries()) {
        const entry = report.files[index]
        expect(entry?.ok, `${vector.filename}: ${JSON.stringify(entry)}`).toBe(true)
        const markdown = entry?.ok ? entry.markdown : ''
        for (const wanted of vector.must_include)
          expect(markdown, `${vector.filename} should include ${wanted}`).toContain(wanted)
        for (const unwanted of vector.must_not_include)
          expect(markdown, `${vector.filename} should not include ${unwanted}`).not.toContain(unwanted)
      }
    }
    await run(vectors.general, [])
    await run(vectors.data_uri, ['--keep-data-uris'])
  }, 300_000)
})
