import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { thirdPartyDir } from '../test/support/requirements'
import type { BenchRow } from './types'

// Helpers the benchmarks share (this file is not a *.bench.ts, so `npm run bench` does not run it).

/** A folder of other projects' files in the third-party folder (`corpus/web`, `corpus/convert`, `fixtures/models`). */
export function thirdPartyFolder(...parts: string[]): string {
  return join(thirdPartyDir(), ...parts)
}

/** A corpus folder of the third-party folder (`corpus/<name>`: `web`, `convert`, `xlsx`); it may be absent. */
export function corpusDir(name: string): string {
  return thirdPartyFolder('corpus', name)
}

/** The row of a benchmark whose third-party folder is absent (undefined when it is there). */
export function skippedWithout(folder: string): BenchRow[] | undefined {
  if (existsSync(folder)) return undefined
  return [{ name: 'skipped', value: 0, unit: '', note: `skipped: no ${folder} (set BUREAU_THIRD_PARTY_DIR)` }]
}

/** The middle value (the mean of the two middle values for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
