import { describe, expect } from 'vitest'
import { z } from 'zod'
import { runCliInProcess } from '../../support/inProcessCli'
import { describeNeeding } from '../../support/requirements'
import { itFast as it, itSoak } from '../../support/tier'
import { CORPUS, core, corpus as thirdParty, type Vectors } from './corpus'

const corpus = (name: string) => core.path(name)

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
    const result = await runCliInProcess(['convert', corpus('kanji.csv')])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('| 佐藤花子 | 41 | 札幌 |')
    expect(result.stderr).toContain('decoded as shift_jis')
  })

  it('converts a batch with a marker per file', async () => {
    const result = await runCliInProcess(['convert', corpus('notes.json'), corpus('notebook.ipynb')])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/<!-- file: .*notes\.json \(json\) -->/)
    expect(result.stdout).toMatch(/<!-- file: .*notebook\.ipynb \(ipynb\) -->/)
  })

  it('--json reports each file; one failure makes the exit code 1', async () => {
    const result = await runCliInProcess(['convert', '--json', corpus('notes.json'), corpus('random.bin')])
    expect(result.code).toBe(1)
    const report = JsonReport.parse(JSON.parse(result.stdout))
    expect(report.files.map((file) => file.ok)).toEqual([true, false])
    const failed = report.files[1]
    expect(failed && !failed.ok && failed.error.failure).toBe('not_a_document')
    expect(result.stderr).toContain('1 of 2 files could not be converted')
  })

  it('--keep-data-uris and --max-chars reach the converter', async () => {
    const kept = await runCliInProcess(['convert', '--keep-data-uris', corpus('report.docx')])
    expect(kept.stdout).toContain('data:image/png;base64,iVBORw0KGgoAAAANSU')
    const cut = await runCliInProcess(['convert', '--max-chars', '500', corpus('page.html')])
    expect(cut.stdout.trim().length).toBeGreaterThan(100)
    expect(cut.code).toBe(0)
    expect(cut.stdout.trim().length).toBeLessThanOrEqual(500)
  })

  it('names a missing file and exits 1; usage errors exit 2', async () => {
    const missing = await runCliInProcess(['convert', 'no/such/file.pdf'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('Cannot convert "file.pdf": file not found')
    expect((await runCliInProcess(['convert'])).code).toBe(2)
    expect((await runCliInProcess(['convert', '--max-chars', 'many', corpus('notes.json')])).code).toBe(2)
    expect((await runCliInProcess(['convert', '--max-chars', '0', corpus('notes.json')])).code).toBe(2)
  })
})

// The build bundles the converters' libraries (PDFium's glue, mammoth, turndown, SheetJS...) into lazy
// chunks; the in-process vector tests run the sources, so the built command is checked too.
async function passesEveryVector(set: typeof core): Promise<void> {
  const run = async (vectorList: Vectors['general'], flags: string[]) => {
    const result = await runCliInProcess(
      ['convert', '--json', ...flags, ...vectorList.map((v) => set.path(v.filename))],
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
  expect(set.vectors.general.length).toBeGreaterThan(10)
  await run(set.vectors.general, [])
  await run(set.vectors.data_uri, ['--keep-data-uris'])
}

describe('bureau convert with the bundled converters', () => {
  it("passes every vector of the project's documents in one batch", () => passesEveryVector(core), 300_000)
})

describeNeeding([CORPUS], 'bureau convert with the bundled converters on real-world documents', () => {
  itSoak('passes every corpus vector in one batch', () => passesEveryVector(thirdParty), 300_000)
})
