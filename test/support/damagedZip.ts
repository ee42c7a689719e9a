import { unzipSync, zipSync } from 'fflate'

/**
 * The same package with every member's declared uncompressed size one byte too big (local header and
 * central directory), so the data inflates fine but not to the size the archive claims.
 */
export function withLyingSizes(bytes: Uint8Array): Uint8Array {
  const out = zipSync(unzipSync(bytes))
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength)
  for (let i = 0; i + 4 <= out.length; i++) {
    const signature = view.getUint32(i, true)
    if (signature === 0x04034b50) view.setUint32(i + 22, view.getUint32(i + 22, true) + 1, true)
    if (signature === 0x02014b50) view.setUint32(i + 24, view.getUint32(i + 24, true) + 1, true)
  }
  return out
}
