import { Unzip, UnzipInflate, unzipSync } from 'fflate'
import { FormatProblem } from '../errors'
import { checkZipLimits, defaultZipLimits, type ZipEntry, type ZipLimits } from './zipBasics'

export { checkZipLimits, defaultZipLimits, type ZipEntry, type ZipLimits }

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
  checkZipLimits(listZip(bytes), wanted, limits)
  return inflateCounted(bytes, wanted, limits.maxTotalBytes)
}

/** Input is fed in slices this big, so one slice inflates to at most ~64 MB (deflate's ratio is ≤ 1032). */
const FEED_BYTES = 64 * 1024

/**
 * Inflates with a running count of the bytes actually produced: a central directory that lies about
 * sizes cannot push memory past the limit (each slice of input yields a bounded piece of output).
 */
function inflateCounted(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  maxTotalBytes: number,
): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>()
  let total = 0
  let failure: FormatProblem | undefined
  const unzip = new Unzip((file) => {
    if (!wanted(file.name) || file.compression === 14) return
    const chunks: Uint8Array[] = []
    file.ondata = (error, chunk, final) => {
      if (failure) return
      if (error) {
        failure = new FormatProblem(
          'damaged',
          'the file is damaged or truncated (a zip member cannot be inflated)',
        )
        return
      }
      total += chunk.length
      if (total > maxTotalBytes) {
        failure = new FormatProblem(
          'too_large',
          `the archive expands to more than ${Math.round(maxTotalBytes / 2 ** 20)} MB (more than its directory says)`,
        )
        file.terminate()
        return
      }
      chunks.push(chunk)
      if (final) files.set(file.name, joinChunks(chunks))
    }
    file.start()
  })
  unzip.register(UnzipInflate)
  try {
    for (let at = 0; at < bytes.length && !failure; at += FEED_BYTES) {
      const end = Math.min(bytes.length, at + FEED_BYTES)
      unzip.push(bytes.subarray(at, end), end === bytes.length)
    }
  } catch {
    failure ??= new FormatProblem(
      'damaged',
      'the file is damaged or truncated (a zip member cannot be inflated)',
    )
  }
  if (failure) throw failure
  return files
}

function joinChunks(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0))
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}

export function zipText(files: Map<string, Uint8Array>, name: string): string | undefined {
  const data = files.get(name)
  return data ? new TextDecoder('utf-8').decode(data) : undefined
}
