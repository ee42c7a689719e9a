import { Inflate, inflateSync } from 'fflate'
import { AppError } from '../../../shared/errors'

// A workbook's zip read from its central directory, so one part can be inflated alone and a sheet part
// can be inflated piece by piece, stopping once the rows wanted are out. fflate's `unzipSync` inflates
// every part it keeps in one go, which for a 50,000-row sheet is most of the time to first paint.

/** Unpacked parts of one workbook at most; a larger package is refused, not read. */
export const MAX_UNPACKED_BYTES = 400 * 1024 * 1024
/** Compressed bytes one step of a streamed part inflates. */
export const STREAM_CHUNK = 16 * 1024

interface Entry {
  name: string
  method: number
  compressedSize: number
  size: number
  localOffset: number
}

const damaged = () =>
  new AppError('VALIDATION_FAILED', 'The file is not a readable .xlsx workbook (its zip package is damaged).')

const tooLarge = () =>
  new AppError(
    'TOO_LARGE',
    `The workbook unpacks to more than ${MAX_UNPACKED_BYTES / 2 ** 20} MB; it is too large to preview.`,
  )

function centralDirectory(bytes: Uint8Array): Map<string, Entry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let end = -1
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--)
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i
      break
    }
  if (end < 0) throw damaged()
  let count = view.getUint16(end + 10, true)
  let offset = view.getUint32(end + 16, true)
  // A zip64 end record (written by some libraries even for small packages).
  const locator = end - 20
  if (
    (count === 0xffff || offset === 0xffffffff) &&
    locator >= 0 &&
    view.getUint32(locator, true) === 0x07064b50
  ) {
    const record = Number(view.getBigUint64(locator + 8, true))
    if (record + 56 > bytes.length || view.getUint32(record, true) !== 0x06064b50) throw damaged()
    count = Number(view.getBigUint64(record + 32, true))
    offset = Number(view.getBigUint64(record + 48, true))
  }
  const decoder = new TextDecoder()
  const entries = new Map<string, Entry>()
  let total = 0
  for (let i = 0, at = offset; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw damaged()
    const nameLength = view.getUint16(at + 28, true)
    const extraLength = view.getUint16(at + 30, true)
    const commentLength = view.getUint16(at + 32, true)
    const entry: Entry = {
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    }
    if (
      entry.size === 0xffffffff ||
      entry.compressedSize === 0xffffffff ||
      entry.localOffset === 0xffffffff
    ) {
      // Zip64 extended information: the fields that overflowed, in this order.
      let extra = at + 46 + nameLength
      const extraEnd = extra + extraLength
      while (extra + 4 <= extraEnd) {
        const id = view.getUint16(extra, true)
        const length = view.getUint16(extra + 2, true)
        if (id === 1) {
          let field = extra + 4
          const next = () => {
            const value = Number(view.getBigUint64(field, true))
            field += 8
            return value
          }
          if (entry.size === 0xffffffff) entry.size = next()
          if (entry.compressedSize === 0xffffffff) entry.compressedSize = next()
          if (entry.localOffset === 0xffffffff) entry.localOffset = next()
          break
        }
        extra += 4 + length
      }
    }
    total += entry.size
    if (total > MAX_UNPACKED_BYTES) throw tooLarge()
    entries.set(entry.name, entry)
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/** One part inflated step by step: `next()` gives the following piece of its bytes, undefined at its end. */
export interface PartStream {
  next(): Uint8Array | undefined
  /** Compressed bytes fed to the inflater so far. */
  readonly compressedRead: number
  /** Bytes inflated so far. */
  readonly inflated: number
  readonly size: number
}

export interface ZipPackage {
  names(): string[]
  has(name: string): boolean
  /** The declared unpacked size of a part. */
  size(name: string): number
  /** A whole part, inflated at once (for the small parts: workbook, rels, styles, strings, charts). */
  read(name: string): Uint8Array | undefined
  stream(name: string): PartStream | undefined
}

export function openZip(bytes: Uint8Array): ZipPackage {
  let entries: Map<string, Entry>
  try {
    entries = centralDirectory(bytes)
  } catch (error) {
    if (error instanceof AppError) throw error
    throw damaged()
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const dataOf = (entry: Entry) => {
    const at = entry.localOffset
    if (at + 30 > bytes.length || view.getUint32(at, true) !== 0x04034b50) throw damaged()
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true)
    if (start + entry.compressedSize > bytes.length) throw damaged()
    if (entry.method !== 0 && entry.method !== 8) throw damaged()
    return bytes.subarray(start, start + entry.compressedSize)
  }
  return {
    names: () => [...entries.keys()],
    has: (name) => entries.has(name),
    size: (name) => entries.get(name)?.size ?? 0,
    read(name) {
      const entry = entries.get(name)
      if (!entry) return undefined
      const data = dataOf(entry)
      if (entry.method === 0) return data
      try {
        const out = inflateSync(data, { out: new Uint8Array(entry.size) })
        if (out.length !== entry.size) throw damaged()
        return out
      } catch {
        throw damaged()
      }
    },
    stream(name) {
      const entry = entries.get(name)
      if (!entry) return undefined
      const data = dataOf(entry)
      let position = 0
      let inflated = 0
      const pieces: Uint8Array[] = []
      const inflater = new Inflate((chunk) => {
        inflated += chunk.length
        // The declared size bounds what a part may unpack to (a zip bomb's sizes lie).
        if (inflated > entry.size) throw damaged()
        pieces.push(chunk)
      })
      return {
        get compressedRead() {
          return position
        },
        get inflated() {
          return inflated
        },
        size: entry.size,
        next() {
          while (pieces.length === 0 && position < data.length) {
            const end = Math.min(data.length, position + STREAM_CHUNK)
            if (entry.method === 0) {
              pieces.push(data.subarray(position, end))
              inflated += end - position
            } else
              try {
                inflater.push(data.subarray(position, end), end === data.length)
              } catch {
                throw damaged()
              }
            position = end
          }
          if (pieces.length === 0) return undefined
          if (pieces.length === 1) return pieces.pop()
          const total = pieces.reduce((n, p) => n + p.length, 0)
          const out = new Uint8Array(total)
          let at = 0
          for (const piece of pieces) {
            out.set(piece, at)
            at += piece.length
          }
          pieces.length = 0
          return out
        },
      }
    },
  }
}
