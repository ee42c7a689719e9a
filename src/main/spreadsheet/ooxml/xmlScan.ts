/** A top-level child element of an XML document's root, found by position. */
export interface ChildElement {
  /** Qualified name, e.g. `drawing`, `mc:AlternateContent`. */
  name: string
  start: number
  end: number
}

function skipTo(xml: string, from: number, token: string): number {
  const at = xml.indexOf(token, from)
  return at < 0 ? xml.length : at + token.length
}

/** End of the tag starting at `at` (after `>`), honouring quoted attribute values. */
function tagEnd(xml: string, at: number): number {
  let quote = ''
  for (let i = at; i < xml.length; i++) {
    const ch = xml[i]
    if (quote) {
      if (ch === quote) quote = ''
    } else if (ch === '"' || ch === "'") quote = ch
    else if (ch === '>') return i + 1
  }
  return xml.length
}

/**
 * Lists the root's children starting at `from` (which must be at depth 1, e.g. right after `</sheetData>`).
 * A small scanner rather than a DOM: worksheet parts can be tens of megabytes and only their tail matters.
 */
export function childElements(xml: string, from: number): ChildElement[] {
  const out: ChildElement[] = []
  let depth = 0
  let current: ChildElement | undefined
  let i = from
  while (i < xml.length) {
    const lt = xml.indexOf('<', i)
    if (lt < 0) break
    if (xml.startsWith('<!--', lt)) {
      i = skipTo(xml, lt, '-->')
      continue
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      i = skipTo(xml, lt, ']]>')
      continue
    }
    if (xml.startsWith('<?', lt)) {
      i = skipTo(xml, lt, '?>')
      continue
    }
    const end = tagEnd(xml, lt)
    if (xml[lt + 1] === '/') {
      if (depth === 0) break // the root's end tag
      depth--
      if (depth === 0 && current) {
        current.end = end
        out.push(current)
        current = undefined
      }
    } else {
      const name = /^<([\w:.-]+)/.exec(xml.slice(lt, lt + 80))?.[1] ?? ''
      const selfClosing = xml[end - 2] === '/'
      if (depth === 0) {
        if (selfClosing) out.push({ name, start: lt, end })
        else current = { name, start: lt, end }
      }
      if (!selfClosing) depth++
    }
    i = end
  }
  return out
}

/** Index right after the end of `<sheetData>`; the elements exceljs may drop all come after it. */
export function afterSheetData(xml: string): number {
  const close = xml.lastIndexOf('</sheetData>')
  if (close >= 0) return close + '</sheetData>'.length
  const selfClosed = /<sheetData\s*\/>/.exec(xml)
  if (selfClosed) return selfClosed.index + selfClosed[0].length
  const root = /<(\w+:)?(worksheet|chartsheet)\b[^>]*>/.exec(xml)
  return root ? root.index + root[0].length : 0
}

export function localName(qualified: string): string {
  const colon = qualified.indexOf(':')
  return colon < 0 ? qualified : qualified.slice(colon + 1)
}
