import { decodeXml, escapeXml, type Parts, workbookSheets } from './packageParts'

// exceljs 4.4.0 writes a "text contains" conditional format without the rule's `text` attribute (only
// its formula): LibreOffice then reads it as containing "" and highlights every cell, and Excel's dialog
// shows no text. It also gives a link to a cell of the workbook (`location`) an external relationship to
// a file named like the cell, which LibreOffice follows instead of the location. Only the part after
// `</sheetData>` is read; the rows are copied only when it changes.

const END_OF_ROWS = Buffer.from('</sheetData>')

/** The `text` of a rule whose formula is exceljs's `NOT(ISERROR(SEARCH("…",A1)))`. */
function searchedText(rule: string): string | undefined {
  const quoted = /<formula>NOT\(ISERROR\(SEARCH\(&quot;((?:(?!&quot;,).)*)&quot;,/.exec(rule)?.[1]
  return quoted === undefined ? undefined : decodeXml(quoted).replace(/""/g, '"')
}

function fixTail(tail: string): string {
  return tail.replace(/<cfRule\b[^>]*\btype="containsText"[^>]*>[\s\S]*?<\/cfRule>/g, (rule) => {
    const open = /^<cfRule\b[^>]*>/.exec(rule)![0]
    if (/\btext="/.test(open)) return rule
    const text = searchedText(rule)
    if (text === undefined) return rule
    const operator = /\boperator="/.test(open) ? '' : ' operator="containsText"'
    return rule.replace(open, `${open.slice(0, -1)}${operator} text="${escapeXml(text)}">`)
  })
}

/** The tail without the relationship of each in-workbook link, and the relationship ids dropped. */
function locationLinksOnly(tail: string): { tail: string; dropped: string[] } {
  const dropped: string[] = []
  const fixed = tail.replace(/<hyperlink\b[^>]*>/g, (link) => {
    if (!/\blocation="/.test(link)) return link
    const id = /\sr:id="([^"]*)"/.exec(link)
    if (!id) return link
    dropped.push(id[1] as string)
    return link.replace(id[0], '')
  })
  return { tail: fixed, dropped }
}

function relsPartOf(sheetPart: string): string {
  const slash = sheetPart.lastIndexOf('/')
  return `${sheetPart.slice(0, slash)}/_rels/${sheetPart.slice(slash + 1)}.rels`
}

function withoutRelationships(rels: string, ids: string[]): string {
  return rels.replace(/<Relationship\b[^>]*\/>/g, (rel) => {
    const id = /\bId="([^"]*)"/.exec(rel)?.[1]
    return id !== undefined && ids.includes(id) ? '' : rel
  })
}

/** Rewrites, in `parts`, the worksheet tails that hold such a rule or such a link. */
export function fixSheetTails(parts: Parts): void {
  for (const sheet of workbookSheets(parts)) {
    if (sheet.kind !== 'worksheet') continue
    const bytes = parts[sheet.part]
    if (!bytes) continue
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const at = buffer.lastIndexOf(END_OF_ROWS)
    const tail = buffer.toString('utf8', Math.max(at, 0))
    const hasRule = tail.includes('containsText')
    const hasLocation = tail.includes('location="')
    if (!hasRule && !hasLocation) continue
    let fixed = hasRule ? fixTail(tail) : tail
    if (hasLocation) {
      const links = locationLinksOnly(fixed)
      fixed = links.tail
      const relsPart = relsPartOf(sheet.part)
      const rels = parts[relsPart]
      if (links.dropped.length > 0 && rels)
        parts[relsPart] = new Uint8Array(
          Buffer.from(withoutRelationships(Buffer.from(rels).toString('utf8'), links.dropped), 'utf8'),
        )
    }
    if (fixed === tail) continue
    const head = at < 0 ? Buffer.alloc(0) : buffer.subarray(0, at)
    parts[sheet.part] = new Uint8Array(Buffer.concat([head, Buffer.from(fixed, 'utf8')]))
  }
}
