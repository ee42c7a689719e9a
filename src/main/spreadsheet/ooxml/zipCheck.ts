import { crc32 } from 'node:zlib'

// Every member must unpack to the size and CRC-32 its central directory declares. JSZip, which exceljs
// read packages with, checked the size (its CRC-32 check was off); fflate, which reads them now, checks
// neither. The CRC-32 is checked as the converter checks it: a damaged member is refused, not edited.

const CENTRAL = 0x02014b50

/** Declared CRC-32 and size of each member, from the zip's central directory. */
function declared(zip: Uint8Array): Map<string, { crc: number; size: number }> {
  const bytes = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength)
  const out = new Map<string, { crc: number; size: number }>()
  let at = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (at < 0) return out
  at = bytes.readUInt32LE(at + 16)
  while (at + 46 <= bytes.length && bytes.readUInt32LE(at) === CENTRAL) {
    const utf8 = (bytes.readUInt16LE(at + 8) & 0x800) !== 0
    const nameLength = bytes.readUInt16LE(at + 28)
    const skip = nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32)
    const name = bytes.toString(utf8 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength)
    out.set(name, { crc: bytes.readUInt32LE(at + 16), size: bytes.readUInt32LE(at + 24) })
    at += 46 + skip
  }
  return out
}

/** The first member of `zip` that did not unpack (in `parts`) to its declared size and CRC-32. */
export function damagedMember(zip: Uint8Array, parts: Record<string, Uint8Array>): string | undefined {
  const sizes = declared(zip)
  for (const [name, data] of Object.entries(parts)) {
    const want = sizes.get(name)
    // Zip64 members declare 0xffffffff here; their real size is in an extra field.
    if (!want || want.size === 0xffffffff) continue
    if (data.byteLength !== want.size || crc32(data) !== want.crc) return name
  }
  return undefined
}
