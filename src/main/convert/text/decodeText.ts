import { createRequire } from 'node:module'

type Chardet = typeof import('chardet')

export interface DecodedText {
  text: string
  encoding: string
}

const multiByteCandidates = ['shift_jis', 'euc-jp', 'gb18030', 'big5', 'euc-kr']
const weirdCharacter = /[\p{S}\p{P}\p{Cc}\p{Co}\p{No}\uFFFD]/u
const halfWidthKana = /[\uFF61-\uFF9F]/u

function decodeStrict(bytes: Uint8Array, encoding: string): string | undefined {
  try {
    // stream: a sample cut inside a multi-byte character is not an error
    return new TextDecoder(encoding, { fatal: true }).decode(bytes, { stream: true })
  } catch {
    return undefined
  }
}

/** Share of non-ASCII characters that are symbols, controls or stray kana: mojibake looks like this. */
function weirdness(text: string): number {
  let nonAscii = 0
  let weird = 0
  for (const char of text) {
    if (char.charCodeAt(0) < 0x80) continue
    nonAscii++
    if (weirdCharacter.test(char)) weird++
    else if (halfWidthKana.test(char)) weird += 0.5
  }
  return nonAscii === 0 ? 0 : weird / nonAscii
}

/**
 * Decodes text in an unknown encoding: BOM, then strict UTF-8, then the candidate (from chardet and
 * the common CJK encodings) that decodes without errors and yields the least mojibake.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' }
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' }
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' }
  const utf8 = decodeStrict(bytes, 'utf-8')
  if (utf8 !== undefined) return { text: utf8, encoding: 'utf-8' }

  const sample = bytes.subarray(0, 256 * 1024)
  // Loaded only for non-UTF-8 input, which is rare: it keeps start-up for everything else lean.
  const { analyse } = createRequire(import.meta.url)('chardet') as Chardet
  const guesses = analyse(sample)
  const confidence = new Map(guesses.map((guess) => [guess.name.toLowerCase(), guess.confidence]))
  const candidates = [
    ...new Set([...guesses.map((guess) => guess.name.toLowerCase()), ...multiByteCandidates, 'windows-1252']),
  ]
  let best: { encoding: string; score: number } | undefined
  for (const encoding of candidates) {
    const decoded = decodeStrict(sample, encoding)
    if (decoded === undefined) continue
    const score = weirdness(decoded) - (confidence.get(encoding) ?? 0) / 1000
    if (!best || score < best.score) best = { encoding, score }
  }
  const encoding = best?.encoding ?? 'windows-1252'
  return { text: new TextDecoder(encoding).decode(bytes), encoding }
}
