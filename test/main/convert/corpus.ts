import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { fixturePath } from '../../support/fixtures'
import { type Requirement, skipReason, thirdPartyDir } from '../../support/requirements'
import { recallOfCounts } from '../../support/wordRecall'

const Vector = z.object({
  filename: z.string(),
  must_include: z.array(z.string()),
  must_not_include: z.array(z.string()),
})
export type Vector = z.infer<typeof Vector>
const Vectors = z.object({ general: z.array(Vector), data_uri: z.array(Vector) })
export type Vectors = z.infer<typeof Vectors>

/** A folder of documents with `vectors.json`: what each file's Markdown must and must not hold. */
export interface DocumentSet {
  dir: string
  path(name: string): string
  file(name: string): Uint8Array
  vectors: Vectors
}

function documentSet(dir: string): DocumentSet {
  const path = (name: string) => {
    const full = join(dir, name)
    if (!existsSync(full)) throw new Error(`Fixture missing: ${full}`)
    return full
  }
  const vectorsFile = join(dir, 'vectors.json')
  return {
    dir,
    path,
    file: (name) => new Uint8Array(readFileSync(path(name))),
    // Absent (the third-party folder on a bare machine): no cases, inside a suite that skips anyway.
    vectors: existsSync(vectorsFile)
      ? Vectors.parse(JSON.parse(readFileSync(vectorsFile, 'utf8')))
      : { general: [], data_uri: [] },
  }
}

/** The project's own documents, one of each format (test/fixtures/core, made by test/fixtures/make/makeCore.ts). */
export const core = documentSet(fixturePath('core'))

/** microsoft/markitdown's test files in the third-party folder: real-world documents, reference Markdown. */
export const corpus = documentSet(join(thirdPartyDir(), 'corpus', 'convert'))

/** What a suite reading `corpus` needs (describeNeeding). */
export const CORPUS: Requirement = { thirdParty: join('corpus', 'convert') }

/**
 * Every .docx of the project's documents, and of the corpus where the third-party folder is there (else
 * the corpus's share is skipped with a printed reason, or fails under BUREAU_CI): absolute paths.
 */
export function docxFixtures(suite: string): string[] {
  const isDocx = (name: string) => name.endsWith('.docx')
  const own = readdirSync(core.dir)
    .filter(isDocx)
    .sort()
    .map((name) => join(core.dir, name))
  if (skipReason(`${suite} (the corpus's .docx files)`, [CORPUS])) return own
  return [
    ...own,
    ...readdirSync(corpus.dir)
      .filter(isDocx)
      .sort()
      .map((name) => join(corpus.dir, name)),
  ]
}

/** Lower-cased words
 (letters and digits) with their counts. */
export function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    counts.set(word, (counts.get(word) ?? 0) + 1)
  return counts
}

/** Share of the reference's words (with multiplicity) that the candidate also has. */
export function wordRecall(reference: string, candidate: string): number {
  return recallOfCounts(wordCounts(reference), wordCounts(candidate))
}
