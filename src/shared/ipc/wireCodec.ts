/**
 * JSON with binary payloads: a Uint8Array travels as {"$bin": "<base64>"}.
 * Electron IPC carries Uint8Array natively; the HTTP transport uses this codec both ways.
 */
const BIN_KEY = '$bin'

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = ''
  const step = 0x8000
  for (let i = 0; i < bytes.length; i += step) {
    binary += String.fromCharCode(...bytes.subarray(i, i + step))
  }
  return btoa(binary)
}

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

export function encodeWire(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v instanceof Uint8Array ? { [BIN_KEY]: bytesToBase64(v) } : v,
  )
}

function isBinMarker(v: unknown): v is { $bin: string } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const keys = Object.keys(v)
  return (
    keys.length === 1 && keys[0] === BIN_KEY && typeof (v as Record<string, unknown>)[BIN_KEY] === 'string'
  )
}

/** Throws SyntaxError on malformed JSON or a malformed binary marker; callers map that to VALIDATION_FAILED. */
export function decodeWire(text: string): unknown {
  // A reviver costs a call per value (a page of sheet rows has tens of thousands): text that can hold no
  // marker, neither spelled out nor through a \u escape, is parsed without one.
  if (!text.includes(BIN_KEY) && !text.includes('\\u')) return JSON.parse(text)
  return JSON.parse(text, (_key, v: unknown) => (isBinMarker(v) ? base64ToBytes(v.$bin) : v))
}
