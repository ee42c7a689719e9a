/** Character classes the chunker needs: scripts written without spaces and their sentence marks. */

// Han, kana, Hangul syllables, fullwidth forms and CJK punctuation.
const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\uff00-\uffef]/u

/**
 * Marks that end a sentence without needing a space after them: CJK full stops, question and
 * exclamation marks and semicolons, Devanagari danda, Arabic and Urdu marks, Ethiopic, Myanmar,
 * Armenian and Tibetan full stops.
 */
const SCRIPT_TERMINALS = new Set([
  '。',
  '！',
  '？',
  '；',
  '．',
  '｡',
  '︒',
  '।',
  '॥',
  '؟',
  '۔',
  '؛',
  '።',
  '၊',
  '။',
  '։',
  '།',
])

/** Latin-style sentence ends: a boundary only when whitespace follows. */
const LATIN_TERMINALS = new Set(['.', '!', '?', ';', '…', '‼', '⁇', '⁈', '⁉'])

/** What may follow a sentence mark and still belong to the sentence. */
const CLOSERS = new Set([
  '"',
  "'",
  ')',
  ']',
  '}',
  '”',
  '’',
  '»',
  '›',
  '」',
  '』',
  '）',
  '】',
  '〉',
  '》',
  '〕',
  '＂',
])

export const isCjk = (ch: string | undefined): boolean => ch !== undefined && CJK.test(ch)
export const isScriptTerminal = (ch: string | undefined): boolean =>
  ch !== undefined && SCRIPT_TERMINALS.has(ch)
export const isLatinTerminal = (ch: string | undefined): boolean =>
  ch !== undefined && LATIN_TERMINALS.has(ch)
export const isCloser = (ch: string | undefined): boolean => ch !== undefined && CLOSERS.has(ch)
export const isSpace = (ch: string | undefined): boolean => ch !== undefined && /\s/u.test(ch)
export const isLowercaseLetter = (ch: string | undefined): boolean => ch !== undefined && /\p{Ll}/u.test(ch)
export const hasSpeakableChar = (text: string): boolean => /[\p{L}\p{N}]/u.test(text)

/** Length with CJK characters counted double: one carries about as much speech as two Latin letters. */
export function speechWeight(text: string): number {
  let weight = 0
  for (const ch of text) weight += isCjk(ch) ? 2 : 1
  return weight
}

/** Joins two pieces of speech: no space between CJK characters, one space elsewhere. */
export function joinSpeech(a: string, b: string): string {
  if (!a) return b
  if (!b) return a
  return isCjk(a.at(-1)) && isCjk(b[0]) ? a + b : `${a} ${b}`
}

/** Ends a fragment that stopped at a line break (a heading, a list item) so TTS pauses after it. */
export function withFinalPunctuation(text: string): string {
  const last = text.at(-1)
  if (last === undefined || isLatinTerminal(last) || isScriptTerminal(last) || /[:,]/.test(last)) return text
  if (isCloser(last)) return text
  if (isCjk(last)) return `${text}。`
  return /[\p{L}\p{N}]/u.test(last) ? `${text}.` : text
}
