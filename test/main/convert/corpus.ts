import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { fixturePath } from '../../support/fixtures'
import { recallOfCounts } from '../../support/wordRecall'

/** The converter corpus, copied into test/fixtures/convert (see its README). */
export const corpusDir = fixturePath('convert')

export function corpusFile(name: string): Uint8Array {
  return new Uint8Array(readFileSync(fixturePath('convert', name)))
}

const Vector = z.object({
  filename: z.string(),
  must_include: z.array(z.string()),
  must_not_include: z.array(z.string()),
})
export type Vector = z.infer<typeof Vector>

export const vectors = z
  .object({ general: z.array(Vector), data_uri: z.array(Vector) })
  .parse(JSON.parse(readFileSync(fixturePath('convert', 'vectors.json'), 'utf8')))

/** Lower-cased words (letters and digits) with their counts. */
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
