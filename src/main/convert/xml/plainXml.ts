// A reader for the plain XML that Office writes: elements with quoted attributes, text, the five
// predefined entities and character references, an XML declaration at the very start. It answers
// false as soon as the input holds anything else (comments, CDATA, processing instructions, DOCTYPE,
// other entities, carriage returns inside the markup, characters XML forbids, markup it cannot read
// as this subset),
// and the caller hands the input to a full parser: within the subset the general parsers read it
// the same way (saxes, htmlparser2 in XML mode), so their results are kept where this one is not sure.

export interface PlainXmlHandler {
  /** Attributes as written, in document order: name, decoded value, name, value... */
  open(name: string, attributes: string[]): void
  close(name: string): void
  /** One call per run of text between markup (also outside the root). */
  text(value: string): void
}

export interface PlainXmlOptions {
  /** XML's attribute-value normalisation: a literal tab or line feed in a value reads as a space (saxes). */
  normaliseAttributeSpace: boolean
}

const NAME = '[A-Za-z_][\\w.:-]*'
const SPACE = '[ \\t\\n]'
const ATTRIBUTE = `${SPACE}+${NAME}${SPACE}*=${SPACE}*(?:"[^"<]*"|'[^'<]*')`
/** One token: text up to the next `<`, an end tag, or a start tag with its attributes (one match for all). */
const TOKEN = new RegExp(`([^<]+)|</(${NAME})>|<(${NAME})((?:${ATTRIBUTE})*)${SPACE}*(/?)>`, 'y')
/** The attributes of a start tag's attribute text, one by one: name, and the value in either quotes. */
const ATTRIBUTES = new RegExp(`${SPACE}+(${NAME})${SPACE}*=${SPACE}*(?:"([^"<]*)"|'([^'<]*)')`, 'g')
const DECLARATION =
  /^<\?xml version=(["'])1\.0\1(?: encoding=(["'])[A-Za-z][\w.-]*\2)?(?: standalone=(["'])(?:yes|no)\3)? ?\?>/
/** A character that might be one XML 1.0 does not allow (a surrogate may be half of a fine pair). */
const SUSPECT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML forbids are what it looks for
  /[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]/
/** What XML 1.0 does not allow at all. */
const OUTSIDE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML forbids are what it looks for
  /[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
const REFERENCE = /&(?:(amp|lt|gt|quot|apos)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));|&/g
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** Markup the plain reader leaves to the full parser: its own class so the catch below returns false for it alone. */
class NotPlain extends Error {}

/** A character reference XML allows, excluding the C1 controls (which the parsers may remap). */
function allowedCodePoint(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    (code >= 0x20 && code <= 0x7e) ||
    (code >= 0xa0 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  )
}

function decode(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(REFERENCE, (reference, name?: string, decimal?: string, hex?: string) => {
    if (name) return PREDEFINED[name] as string
    if (!decimal && !hex) throw new NotPlain(reference)
    const code = decimal ? Number(decimal) : Number.parseInt(hex as string, 16)
    if (!allowedCodePoint(code)) throw new NotPlain(reference)
    return String.fromCodePoint(code)
  })
}

function readText(raw: string, handler: PlainXmlHandler): void {
  if (raw.includes(']]>')) throw new NotPlain(']]>')
  handler.text(decode(raw))
}

const NONE: string[] = []

/** The attributes of a start tag (their text already matched the token's pattern), as a flat list. */
function readAttributes(text: string, options: PlainXmlOptions): string[] {
  if (!text) return NONE
  const attributes: string[] = []
  ATTRIBUTES.lastIndex = 0
  for (let match = ATTRIBUTES.exec(text); match; match = ATTRIBUTES.exec(text)) {
    const key = match[1] as string
    for (let index = 0; index < attributes.length; index += 2)
      if (attributes[index] === key) throw new NotPlain('duplicate attribute')
    let value = match[2] ?? match[3] ?? ''
    if (options.normaliseAttributeSpace && (value.includes('\t') || value.includes('\n')))
      value = value.replace(/[\t\n]/g, ' ')
    attributes.push(key, decode(value))
  }
  return attributes
}

function readMarkup(xml: string, handler: PlainXmlHandler, options: PlainXmlOptions): void {
  const open: string[] = []
  TOKEN.lastIndex = DECLARATION.exec(xml)?.[0].length ?? 0
  while (TOKEN.lastIndex < xml.length) {
    const token = TOKEN.exec(xml)
    if (!token) throw new NotPlain('markup')
    const [, text, end, name, attributes, selfClosing] = token
    if (text !== undefined) readText(text, handler)
    else if (end !== undefined) {
      if (open.pop() !== end) throw new NotPlain('end tag')
      handler.close(end)
    } else {
      handler.open(name as string, readAttributes(attributes as string, options))
      if (selfClosing) handler.close(name as string)
      else open.push(name as string)
    }
  }
  if (open.length > 0) throw new NotPlain('unclosed')
}

/**
 * A carriage return from the first tag to the last: the parsers treat it apart (saxes reads CR LF as LF,
 * htmlparser2 keeps it). Word writes CR LF after the XML declaration, which is outside the markup.
 */
function carriageReturnInMarkup(xml: string): boolean {
  const first = xml.indexOf('<', DECLARATION.exec(xml)?.[0].length ?? 0)
  const carriageReturn = xml.indexOf('\r', Math.max(first, 0))
  return carriageReturn >= 0 && carriageReturn < xml.lastIndexOf('>')
}

/**
 * Reads `xml` into `handler` when it is plain XML (see above); false when it is not, in which case the
 * handler may have had some calls and its result must be dropped.
 */
export function readPlainXml(xml: string, handler: PlainXmlHandler, options: PlainXmlOptions): boolean {
  if ((SUSPECT.test(xml) && OUTSIDE.test(xml)) || carriageReturnInMarkup(xml)) return false
  try {
    readMarkup(xml, handler, options)
    return true
  } catch (error) {
    if (error instanceof NotPlain) return false
    throw error
  }
}
