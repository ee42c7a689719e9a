import { unzipSync } from 'fflate'
import { FormatProblem } from '../errors'

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

/** Lists the central directory without inflating anything; a damaged archive is a FormatProblem. */
export function listZip(bytes: Uint8Array): ZipEntry[] {
  const entries: ZipEntry[] = []
  try {
    unzipSync(bytes, {
      filter: (file) => {
        entries.push({ name: file.name, compressedSize: file.size, size: file.originalSize })
        return false
      },
    })
  } catch {
    throw new FormatProblem('damaged', 'the file is damaged or truncated (its zip structure cannot be read)')
  }
  return entries
}

/**
 * Extracts the members `wanted` accepts, refusing archives whose declared sizes exceed the limits
 * before inflating anything.
 */
export function readZip(
  bytes: Uint8Array,
  wanted: (name: string) => boolean = () => true,
  limits: ZipLimits = defaultZipLimits,
): Map<string, Uint8Array> {
  const entries = listZip(bytes)
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
  let files: Record<string, Uint8Array>
  try {
    files = unzipSync(bytes, { filter: (file) => wanted(file.name) && file.compression !== 14 })
  } catch {
    throw new FormatProblem('damaged', 'the file is damaged or truncated (a zip member cannot be inflated)')
  }
  return new Map(Object.entries(files))
}

export function zipText(files: Map<string, Uint8Array>, name: string): string | undefined {
  const data = files.get(name)
  return data ? new TextDecoder('utf-8').decode(data) : undefined
}
