const END_OF_DIRECTORY = 0x06054b50
const DIRECTORY_ENTRY = 0x02014b50
/** The end record is 22 bytes plus a comment of at most 65,535. */
const END_SEARCH = 22 + 0xffff

/**
 * The CRC-32 the central directory declares for each member, by name. fflate inflates a member into a
 * buffer of its declared size and drops whatever would not fit, so a member that unpacks to more than it
 * declares comes back the right length: only its CRC shows the damage. Empty when the directory cannot
 * be read here (a Zip64 archive): the caller then checks sizes alone, as before.
 */
export function centralCrcs(bytes: Uint8Array): Map<string, number> {
  const crcs = new Map<string, number>()
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let end = -1
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - END_SEARCH); at--)
    if (view.getUint32(at, true) === END_OF_DIRECTORY) {
      end = at
      break
    }
  if (end < 0) return crcs
  const count = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  const decoder = new TextDecoder()
  for (let index = 0; index < count; index++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== DIRECTORY_ENTRY) return new Map()
    const nameLength = view.getUint16(at + 28, true)
    const extraLength = view.getUint16(at + 30, true)
    const commentLength = view.getUint16(at + 32, true)
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength))
    crcs.set(name, view.getUint32(at + 16, true))
    at += 46 + nameLength + extraLength + commentLength
  }
  return crcs
}
