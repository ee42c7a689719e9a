/**
 * Decodes base64 (standard or URL-safe alphabet, padded or not, whitespace ignored) or returns why it
 * is not base64. Node's own decoder skips what it does not understand, so `"!!!"` became zero bytes and
 * a damaged attachment was saved as an empty file with no word.
 */
export function decodeStrictBase64(text: string): { bytes: Buffer } | { error: string } {
  const compact = text.replace(/\s+/g, '')
  if (compact === '') return { error: 'is empty' }
  const bad = /[^A-Za-z0-9+/_=-]/.exec(compact)
  if (bad)
    return { error: `has the character ${JSON.stringify(bad[0])} at ${bad.index}, which base64 does not use` }
  const body = compact.replace(/={1,2}$/, '')
  if (body.includes('=')) return { error: 'has "=" before its end' }
  if (body.length % 4 === 1 || (compact !== body && compact.length % 4 !== 0))
    return { error: `has a length (${compact.length}) no base64 text can have: it is cut off or damaged` }
  const bytes = Buffer.from(body, body.includes('-') || body.includes('_') ? 'base64url' : 'base64')
  if (bytes.byteLength !== Math.floor((body.length * 3) / 4))
    return { error: 'mixes the standard and URL-safe base64 alphabets' }
  return { bytes }
}
