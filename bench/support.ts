import { fixturePath } from '../test/support/fixtures'

// Helpers the benchmarks share (this file is not a *.bench.ts, so `npm run bench` does not run it).

/** A fixture folder of the repository (`test/fixtures/<name>`: `web`, `convert`, `xlsx`); throws if missing. */
export function corpusDir(name: string): string {
  return fixturePath(name)
}

/** The middle value (the mean of the two middle values for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
