import { unzipSync, zipSync } from 'fflate'

/**
 * The same package with every member's declared uncompressed size off by `by` bytes (local header and
 * central directory; one too big by default), so the data inflates fine but not to the size the archive
 * claims. Too small, an inflater that fills a buffer of the declared size cuts the member short.
 */
export function withLyingSizes(bytes: Uint8Array, by = 1): Uint8Array {
  const out = zipSync(unzipSync(bytes))
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength)
  for (let i = 0; i + 4 <= out.length; i++) {
    const signature = view.getUint32(i, true)
    if (signature === 0x04034b50) view.setUint32(i + 22, view.getUint32(i + 22, true) + by, true)
    if (signature === 0x02014b50) view.setUint32(i + 24, view.getUint32(i + 24, true) + by, true)
  }
  return out
}
