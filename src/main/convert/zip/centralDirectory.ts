const END_OF_DIRECTORY = 0x06054b50
const DIRECTORY_ENTRY = 0x02014b50
const ZIP64_LOCATOR = 0x07064b50
/** The end record is 22 bytes plus a comment of at most 65,535. */
const END_SEARCH = 22 + 0xffff
const UTF8_NAME = 0x800
const ZIP64_MARK = 0xffffffff

export interface DirectoryEntry {
  name: string
  /** 0 stored, 8 deflated; anything else is for the caller to refuse. */
  method: number
  compressedSize: number
  size: number
  crc: number
  /** Where the member's local header starts. */
  localHeader: number
}

const utf8 = new TextDecoder()
/** fflate's reading of a name without the UTF-8 flag: each byte one code point (not windows-1252). */
const byteChars = (name: Uint8Array) =>
  Buffer.from(name.buffer, name.byteOffset, name.byteLength).toString('latin1')

/**
 * The central directory of a plain (not Zip64) archive, read as fflate reads it (names are UTF-8 when
 * the entry says so, else one character per byte), or undefined when it is anything else: a Zip64
 * archive, a directory that runs past the end or does not start where the end record says. Callers
 * then leave the archive to fflate, which knows every case.
 */
export function readCentralDirectory(bytes: Uint8Array): DirectoryEntry[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let end = -1
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - END_SEARCH); at--)
    if (view.getUint32(at, true) === END_OF_DIRECTORY) {
      end = at
      break
    }
  if (end < 0 || (end >= 20 && view.getUint32(end - 20, true) === ZIP64_LOCATOR)) return undefined
  const count = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  const entries: DirectoryEntry[] = []
  for (let index = 0; index < count; index++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== DIRECTORY_ENTRY) return undefined
    const nameLength = view.getUint16(at + 28, true)
    const extraLength = view.getUint16(at + 30, true)
    const commentLength = view.getUint16(at + 32, true)
    const compressedSize = view.getUint32(at + 20, true)
    const size = view.getUint32(at + 24, true)
    const localHeader = view.getUint32(at + 42, true)
    if (compressedSize === ZIP64_MARK || size === ZIP64_MARK || localHeader === ZIP64_MARK) return undefined
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength)
    const name = view.getUint16(at + 8, true) & UTF8_NAME ? utf8.decode(nameBytes) : byteChars(nameBytes)
    entries.push({
      name,
      method: view.getUint16(at + 10, true),
      compressedSize,
      size,
      crc: view.getUint32(at + 16, true),
      localHeader,
    })
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/** A member's stored bytes (after its local header), or undefined when they run past the archive. */
export function memberData(bytes: Uint8Array, entry: DirectoryEntry): Uint8Array | undefined {
  const header = entry.localHeader
  if (header + 30 > bytes.length) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const start = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true)
  if (start + entry.compressedSize > bytes.length) return undefined
  return bytes.subarray(start, start + entry.compressedSize)
}
