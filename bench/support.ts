import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// Helpers the benchmarks share (this file is not a *.bench.ts, so `npm run bench` does not run it).

const repoRoot = fileURLToPath(new URL('..', import.meta.url))

/** A folder of the shared corpus, which sits beside the repository (e.g. `web`, `convert`, `xlsx`). */
export function corpusDir(name: string): string {
  return join(repoRoot, '..', 'shared', 'corpus', name)
}

/** The middle value (the mean of the two middle values for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
