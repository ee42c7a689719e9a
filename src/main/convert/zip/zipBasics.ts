import { FormatProblem } from '../errors'

// Apart from readZip.ts, which loads fflate: the Word reader and detection read plain archives from the
// central directory themselves and load fflate only for the archives that reader leaves to it.

/** LZMA: fflate's unzip leaves it out, and so does the Word package reader. */
export const LZMA = 14

export const cannotInflate = () =>
  new FormatProblem('damaged', 'the file is damaged or truncated (a zip member cannot be inflated)')

/** Members read with their declared sizes (`readZipDeclared`). */
export type Declared = { files: Map<string, Uint8Array>; size: Map<string, number> }

export interface ZipEntry {
  name: string
  compressedSize: number
  size: number
}

export interface ZipLimits {
  /** Most bytes all extracted members may add up to (zip-bomb guard). */
  maxTotalBytes: number
  maxEntries: number
}

export const defaultZipLimits: ZipLimits = { maxTotalBytes: 512 * 1024 * 1024, maxEntries: 20_000 }

/** Refuses an archive whose member count, or the declared size of the members `wanted` accepts, is over the limits. */
export function checkZipLimits(
  entries: ZipEntry[],
  wanted: (name: string) => boolean,
  limits: ZipLimits,
): void {
  if (entries.length > limits.maxEntries) {
    throw new FormatProblem(
      'too_large',
      `the archive has ${entries.length} members (limit ${limits.maxEntries})`,
    )
  }
  const total = entries.filter((entry) => wanted(entry.name)).reduce((sum, entry) => sum + entry.size, 0)
  if (total > limits.maxTotalBytes) {
    throw new FormatProblem(
      'too_large',
      `the archive expands to more than ${Math.round(limits.maxTotalBytes / 2 ** 20)} MB`,
    )
  }
}
