/**
 * Words that end with a dot but do not end a sentence, even before a capital letter
 * ("Dr. Smith", "e.g. Paris", "Fig. 3"). Lower-case, with their dots. Abbreviations that often do
 * end a sentence (etc., Inc., a.m.) are left out: they split only before a capital, like any word.
 */
const NEVER_FINAL = new Set([
  // titles
  'mr.',
  'mrs.',
  'ms.',
  'mx.',
  'dr.',
  'prof.',
  'st.',
  'sr.',
  'jr.',
  'gen.',
  'col.',
  'capt.',
  'lt.',
  'sgt.',
  'rev.',
  'hon.',
  'mt.',
  'fr.',
  'mme.',
  'mlle.',
  'hr.',
  // references and Latin
  'e.g.',
  'i.e.',
  'cf.',
  'vs.',
  'viz.',
  'approx.',
  'ca.',
  'no.',
  'nos.',
  'nr.',
  'fig.',
  'figs.',
  'vol.',
  'p.',
  'pp.',
  'ch.',
  'sec.',
  'art.',
  'eq.',
  'ref.',
  'incl.',
  'excl.',
  'min.',
  'max.',
  'est.',
  'dept.',
  'tel.',
  // German and French
  'z.b.',
  'd.h.',
  'u.a.',
  'bzw.',
  'ggf.',
  'evtl.',
  'vgl.',
  'bspw.',
  'inkl.',
  'zzgl.',
  'sog.',
  'str.',
  'p.ex.',
  'c.-à-d.',
])

/** The word that ends at `dotIndex` (inclusive), e.g. "e.g." or "Dr.". */
export function wordBefore(text: string, dotIndex: number): string {
  let start = dotIndex
  while (start > 0 && /[\p{L}.-]/u.test(text[start - 1] ?? '')) start--
  return text.slice(start, dotIndex + 1)
}

/** Whether the dot at `dotIndex` belongs to an abbreviation or an initial rather than ending a sentence. */
export function isAbbreviationDot(text: string, dotIndex: number): boolean {
  const word = wordBefore(text, dotIndex)
  if (NEVER_FINAL.has(word.toLowerCase())) return true
  // A single capital is an initial ("J. R. R. Tolkien").
  return /^\p{Lu}\.$/u.test(word)
}
