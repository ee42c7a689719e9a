import { unzipSync } from 'fflate'
import { listZip } from './readZip'
import { cannotInflate, checkZipLimits, type Declared, LZMA, type ZipLimits } from './zipBasics'

/** `readZipDeclared` for the archives the central-directory reader leaves to fflate (Zip64). */
export function readWithFflate(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  limits: ZipLimits,
): Declared {
  const entries = listZip(bytes)
  checkZipLimits(entries, wanted, limits)
  const size = new Map(entries.map((entry) => [entry.name, entry.size]))
  let inflated: Record<string, Uint8Array>
  try {
    inflated = unzipSync(bytes, { filter: (file) => file.compression !== LZMA && wanted(file.name) })
  } catch {
    throw cannotInflate()
  }
  // No CRC to hold them to here: sizes alone are checked (by the caller).
  return { files: new Map(Object.entries(inflated)), size }
}
