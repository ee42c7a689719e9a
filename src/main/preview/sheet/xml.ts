// Small string helpers for the OOXML parts the preview reads. The parts come from a zip the preview
// unpacked itself; only element names, attributes and text are read, never a DTD or an entity
// declaration, so nothing in a hostile workbook is resolved or fetched.

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

export function decodeXml(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (whole, name: string) => {
    if (name.startsWith('#x')) return safeCodePoint(Number.parseInt(name.slice(2), 16), whole)
    if (name.startsWith('#')) return safeCodePoint(Number.parseInt(name.slice(1), 10), whole)
    return ENTITIES[name] ?? whole
  })
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback
}

/** Attributes of one start tag's text (`<c r="A1" s="2">` or just `r="A1" s="2"`), local names as keys. */
export function attributesOf(tag: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const match of tag.matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    const name = match[1] ?? ''
    const local = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name
    // A prefixed attribute (r:id) is also kept under its full name: both occur.
    const value = decodeXml(match[3] ?? match[4] ?? '')
    out[name] = value
    if (!(local in out)) out[local] = value
  }
  return out
}

/** Every element `<name ...>` or `<name .../>` (any prefix) in `xml`: its attributes and inner text. */
export function* elements(
  xml: string,
  name: string,
): Generator<{ attrs: Record<string, string>; inner: string; start: number }> {
  const pattern = new RegExp(`<(?:[\\w]+:)?${name}(?=[\\s/>])([^>]*?)(/>|>)`, 'g')
  for (let match = pattern.exec(xml); match; match = pattern.exec(xml)) {
    const attrs = attributesOf(match[1] ?? '')
    if (match[2] === '/>') {
      yield { attrs, inner: '', start: match.index }
      continue
    }
    const close = new RegExp(`</(?:[\\w]+:)?${name}>`, 'g')
    close.lastIndex = pattern.lastIndex
    const end = close.exec(xml)
    const innerEnd = end ? end.index : xml.length
    yield { attrs, inner: xml.slice(pattern.lastIndex, innerEnd), start: match.index }
    pattern.lastIndex = end ? close.lastIndex : xml.length
  }
}

export function firstElement(xml: string, name: string) {
  for (const element of elements(xml, name)) return element
  return undefined
}

/** The text of every `<t>` in `xml` joined (a shared string's runs), phonetic runs left out. */
export function runText(xml: string): string {
  const withoutPhonetic = xml.includes('rPh')
    ? xml.replace(/<(?:\w+:)?rPh\b[\s\S]*?<\/(?:\w+:)?rPh>/g, '')
    : xml
  let text = ''
  for (const t of elements(withoutPhonetic, 't')) text += decodeXml(t.inner)
  return text
}

/** "AA10" -> { column: 27, row: 10 } (1-based). */
export function parseA1(ref: string): { column: number; row: number } | undefined {
  const match = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref.trim())
  if (!match?.[1] || !match[2]) return undefined
  let column = 0
  for (const letter of match[1].toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64)
  return { column, row: Number(match[2]) }
}

/** 1 -> "A", 27 -> "AA". */
export function columnLetters(column: number): string {
  let name = ''
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}
