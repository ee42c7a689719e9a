import { isCompleteXml } from '../xml/completeXml'

const wordNamespaces = new Set([
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  'http://purl.oclc.org/ooxml/wordprocessingml/main',
])

/** One tag of well-formed XML: end mark, name, attributes (quoted values may hold `>`), self-closing mark. */
const tagPattern = /<(\/?)([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g
const attributePattern = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g
const prolog = /^\uFEFF?\s*(?:<\?[^>]*\?>\s*)?/
/**
 * The usual content of `w:latentStyles`: self-closing `w:lsdException` tags (hundreds of them) and text
 * without markup. The scan below would go through them one by one to no effect; one match skips them.
 */
const latentExceptions = /(?:[^<]*<w:lsdException(?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*\/>)*[^<]*/y

/** Where the latent styles' content ends when it is only exceptions, else undefined. */
function skipLatentStyles(xml: string, from: number): number | undefined {
  const close = xml.indexOf('</w:latentStyles>', from)
  if (close < 0) return undefined
  latentExceptions.lastIndex = from
  return latentExceptions.exec(xml) && latentExceptions.lastIndex === close ? close : undefined
}

function attributesOf(text: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const match of text.matchAll(attributePattern)) found.set(match[1] ?? '', match[2] ?? match[3] ?? '')
  return found
}

/** The root declares `w:` as WordprocessingML and no other prefix as the same, so `w:` means what mammoth reads. */
function plainRoot(name: string, attributes: string): boolean {
  if (name !== 'w:styles') return false
  const declared = attributesOf(attributes)
  if (!wordNamespaces.has(declared.get('xmlns:w') ?? '')) return false
  return ![...declared].some(
    ([key, value]) => key.startsWith('xmlns') && key !== 'xmlns:w' && wordNamespaces.has(value),
  )
}

interface StyleParts {
  open: string
  name?: string
  numId?: string
  /** w:pPr children, and w:numPr in the first of them, seen so far: mammoth reads the first of each. */
  pPr: number
  numPr: number
}

function closeStyle(style: StyleParts): string {
  const numbering = style.numId ? `<w:pPr><w:numPr>${style.numId}</w:numPr></w:pPr>` : ''
  return `${style.open}${style.name ?? ''}${numbering}</w:style>`
}

/**
 * `word/styles.xml` cut down to what mammoth reads from it (styles-reader.js): each top-level
 * `w:style` with its attributes, its first `w:name`, and the first `w:pPr/w:numPr/w:numId` (numbering
 * styles). The rest (latent styles, document defaults, run and paragraph formatting) is most of the
 * part and cost most of mammoth's XML parsing. Tags are copied as written (entities and all). A part
 * that is incomplete or not plain (comments, CDATA, namespaces declared below the root, markup
 * compatibility blocks, styles not at the top level) is returned unchanged, so mammoth sees it as before.
 */
export function pruneStyles(xml: string): string {
  if (!isCompleteXml(xml) || xml.includes('<!')) return xml
  const start = prolog.exec(xml)?.[0].length ?? 0
  const out: string[] = []
  const path: string[] = []
  let style: StyleParts | undefined
  let at = start
  tagPattern.lastIndex = start
  for (let match = tagPattern.exec(xml); match; match = tagPattern.exec(xml)) {
    const offset = match.index
    // Anything between tags is text; a `<` there is markup this scan does not know.
    const next = xml.indexOf('<', at)
    if (next >= 0 && next < offset) return xml
    at = offset + match[0].length
    const [tag, end, name = '', attributes = '', selfClosing] = match
    if (end) {
      if (path.pop() !== name) return xml
      if (name === 'w:style' && style && path.length === 1) {
        out.push(closeStyle(style))
        style = undefined
      }
      if (path.length === 0) out.push(tag)
      continue
    }
    const depth = path.length
    if (depth === 0) {
      if (!plainRoot(name, attributes) || xml.includes('xmlns', at)) return xml
      out.push(tag)
    } else if (name.startsWith('mc:')) {
      return xml
    } else if (name === 'w:style') {
      if (depth !== 1) return xml
      style = { open: `<w:style${attributes}>`, pPr: 0, numPr: 0 }
      if (selfClosing) {
        out.push(closeStyle(style))
        style = undefined
      }
    } else if (style) {
      if (depth === 2 && name === 'w:name') style.name ??= `<w:name${attributes}/>`
      if (depth === 2 && name === 'w:pPr') style.pPr++
      const inFirstPPr = style.pPr === 1 && path[2] === 'w:pPr'
      if (depth === 3 && name === 'w:numPr' && inFirstPPr) style.numPr++
      if (depth === 4 && name === 'w:numId' && inFirstPPr && style.numPr === 1 && path[3] === 'w:numPr')
        style.numId ??= `<w:numId${attributes}/>`
    }
    if (!selfClosing) path.push(name)
    const skipped =
      depth === 1 && name === 'w:latentStyles' && !selfClosing ? skipLatentStyles(xml, at) : undefined
    if (skipped !== undefined) tagPattern.lastIndex = at = skipped
  }
  if (path.length > 0 || xml.slice(at).includes('<')) return xml
  return out.join('')
}
