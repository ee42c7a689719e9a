/** Inline Markdown to plain speech: links keep their text, URLs become their host, markers vanish. */

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
}

/** `https://www.example.com/a?b` -> `example.com`: a URL is named, never spelled out. */
export function urlHost(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/\s]*@)?([^/:?#\s]+)/i.exec(url)
  return (match?.[1] ?? url).replace(/^www\./i, '')
}

// Trailing punctuation belongs to the sentence, not to the URL.
const BARE_URL = /\b(?:https?|ftp):\/\/[^\s<>"'`]*[^\s<>"'`.,;:!?)\]]/gi
const IMAGE = /!\[([^\]]*)\]\((?:[^()\s]|\([^)]*\))*(?:\s+"[^"]*")?\)/g
const LINK = /\[([^\]]*)\]\((?:[^()\s]|\([^)]*\))*(?:\s+"[^"]*")?\)/g
const REFERENCE_LINK = /\[([^\]]+)\]\[[^\]]*\]/g
const AUTOLINK = /<((?:https?|ftp):\/\/[^>\s]+)>/gi
const MAIL_AUTOLINK = /<(?:mailto:)?([^>\s@]+@[^>\s]+)>/gi
const FOOTNOTE = /\[\^[^\]]+\]/g
const BREAK_TAG = /<br\s*\/?>/gi
const HTML_TAG = /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/gi
const ESCAPE = /\\([\\`*_{}[\]()#+\-.!|~<>])/g
const ENTITY = /&(#x[0-9a-f]+|#\d+|[a-z]+);/gi
// Escaped characters are parked in the Private Use Area while markers are removed.
const PROTECT_BASE = 0xe000
const PROTECTED = /[\ue000-\ue07f]/g

function decodeEntity(whole: string, name: string): string {
  if (name[0] === '#') {
    const code =
      name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1))
    return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ''
  }
  return ENTITIES[name.toLowerCase()] ?? whole
}

const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch)

/** Removes `*`, `_` and `~~` runs that open or close emphasis; keeps `snake_case` and `2 * 3`. */
function stripEmphasis(text: string, previous: string | undefined): string {
  return text.replace(/\*+|_+|~~+/g, (run, offset: number) => {
    const before = offset === 0 ? previous : text[offset - 1]
    const after = text[offset + run.length]
    if (run[0] === '~' || run.length >= 2)
      return isWordChar(before) && isWordChar(after) && run[0] === '_' ? run : ''
    const opens = !isWordChar(before) && after !== undefined && !/\s/.test(after)
    const closes = before !== undefined && !/\s/.test(before) && !isWordChar(after)
    return opens || closes ? '' : run
  })
}

function stripNonCode(text: string, previous: string | undefined): string {
  return stripEmphasis(
    text
      .replace(IMAGE, '')
      .replace(LINK, '$1')
      .replace(REFERENCE_LINK, '$1')
      .replace(AUTOLINK, (_m, url: string) => urlHost(url))
      .replace(MAIL_AUTOLINK, '$1')
      .replace(FOOTNOTE, '')
      .replace(BREAK_TAG, ' ')
      .replace(HTML_TAG, '')
      .replace(BARE_URL, (url) => urlHost(url))
      .replace(ESCAPE, (_m, ch: string) => String.fromCharCode(PROTECT_BASE + ch.charCodeAt(0))),
    previous,
  )
    .replace(/[[\]]/g, '')
    .replace(PROTECTED, (ch) => String.fromCharCode(ch.charCodeAt(0) - PROTECT_BASE))
    .replace(ENTITY, decodeEntity)
}

/**
 * Plain speech for one piece of a Markdown line; code spans keep their content verbatim.
 * `previous` is the raw character just before the piece (pieces of one line arrive one by one).
 */
export function stripInline(text: string, previous?: string): string {
  let out = ''
  let rest = text
  let before = previous
  for (;;) {
    const open = /`+/.exec(rest)
    if (!open) return out + stripNonCode(rest, before)
    const close = rest.indexOf(open[0], open.index + open[0].length)
    if (close < 0)
      return out + stripNonCode(rest.slice(0, open.index) + rest.slice(open.index + open[0].length), before)
    out +=
      stripNonCode(rest.slice(0, open.index), before) + rest.slice(open.index + open[0].length, close).trim()
    rest = rest.slice(close + open[0].length)
    before = '`'
  }
}

/** Where an unfinished link, image, code span or tag starts, or -1 when nothing is left open. */
function openConstruct(text: string): number {
  let inCode: { start: number; fence: string } | undefined
  for (let i = 0; i < text.length; ) {
    const ticks = /^`+/.exec(text.slice(i))?.[0]
    if (ticks) {
      if (!inCode) inCode = { start: i, fence: ticks }
      else if (ticks === inCode.fence) inCode = undefined
      i += ticks.length
    } else i++
  }
  if (inCode) return inCode.start
  const bracket = text.lastIndexOf('[')
  if (bracket >= 0) {
    const tail = text.slice(bracket)
    const closed = /^\[[^\]]*\](?:\((?:[^()\s]|\([^)]*\))*(?:\s+"[^"]*")?\)|\[[^\]]*\])/.exec(tail)
    const plain = /^\[[^\]]*\][^([]/.exec(tail)
    if (!closed && !plain) return text[bracket - 1] === '!' ? bracket - 1 : bracket
  }
  const angle = text.lastIndexOf('<')
  if (angle >= 0 && text.indexOf('>', angle) < 0) return angle
  return -1
}

// Characters that may start or be part of Markdown syntax, a URL or an entity.
const SYNTAX_CHARS = /[*_~`[\]()<>!\\&|:/@#]/
const SCHEMES = ['https://', 'http://', 'ftp://', 'mailto:']

/**
 * Whether the unfinished last word can be released already: plain letters, digits and sentence marks
 * that no later character can turn into syntax. CJK text has no spaces, so without this it would
 * wait for the end of the line; Latin text gains the first letter of the next word, which is what
 * decides whether a dot ended a sentence.
 */
function isSafeTail(tail: string): boolean {
  if (tail === '' || SYNTAX_CHARS.test(tail)) return false
  const lower = tail.toLowerCase()
  return !SCHEMES.some((scheme) => scheme.startsWith(lower))
}

/**
 * How much of an unfinished line can be turned into speech now: up to the last whitespace, and not
 * into a link, code span or tag that has not closed yet (its text could still change).
 */
export function stableCut(line: string): number {
  let end = line.length
  while (end > 0 && !/\s/.test(line[end - 1] ?? '')) end--
  if (isSafeTail(line.slice(end))) end = line.length
  for (;;) {
    const open = openConstruct(line.slice(0, end))
    if (open < 0) return end
    end = open
    while (end > 0 && !/\s/.test(line[end - 1] ?? '')) end--
  }
}
