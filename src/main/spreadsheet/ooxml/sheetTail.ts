import { decodeXml, escapeXml, type Parts, workbookSheets } from './packageParts'

// exceljs 4.4.0 writes a "text contains" conditional format without the rule's `text` attribute (only
// its formula): LibreOffice then reads it as containing "" and highlights every cell, and Excel's dialog
// shows no text. Only the part after `</sheetData>` is read; the rows are copied only when it changes.

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

/** Rewrites, in `parts`, the worksheet tails that hold such a rule. */
export function fixSheetTails(parts: Parts): void {
  for (const sheet of workbookSheets(parts)) {
    if (sheet.kind !== 'worksheet') continue
    const bytes = parts[sheet.part]
    if (!bytes) continue
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const at = buffer.lastIndexOf(END_OF_ROWS)
    const tail = buffer.toString('utf8', Math.max(at, 0))
    if (!tail.includes('containsText')) continue
    const fixed = fixTail(tail)
    if (fixed === tail) continue
    const head = at < 0 ? Buffer.alloc(0) : buffer.subarray(0, at)
    parts[sheet.part] = new Uint8Array(Buffer.concat([head, Buffer.from(fixed, 'utf8')]))
  }
}
