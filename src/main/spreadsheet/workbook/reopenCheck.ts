import { zipSync } from 'fflate'
import { saveRefused } from '../errors'
import { contentTypeOf, type Parts, workbookSheets } from '../ooxml/packageParts'
import { loadWorkbook } from './loadWorkbook'

const OPEN = Buffer.from('<sheetData')
const CLOSE = Buffer.from('</sheetData>')
const EMPTY = Buffer.from('<sheetData/>')
const RECORDS_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.pivotCacheRecords+xml'
const NO_RECORDS = Buffer.from(
  '<pivotCacheRecords xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0"/>',
)

/** A worksheet part with its cell rows left out (`<sheetData/>`); the part itself when it has none. */
function withoutRows(bytes: Uint8Array): Uint8Array {
  const xml = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const start = xml.indexOf(OPEN)
  const end = xml.lastIndexOf(CLOSE)
  if (start < 0 || end < start) return bytes
  return Buffer.concat([xml.subarray(0, start), EMPTY, xml.subarray(end + CLOSE.length)])
}

/**
 * The reopen check of a save: exceljs loads the package as it will be written, except for the cell rows
 * of each worksheet. Those rows are exceljs's own serialisation of the cells it holds (Bureau never edits
 * them as XML) and have already been parsed as XML with every other part; loading them again only
 * re-reads what was just written, and took as long as opening the file. Everything Bureau writes or
 * carries (sheet settings and the elements after the rows, workbook, relationships, styles, shared
 * strings, defined names) is read, so the guarantee stays "the workbook reopens", at any size.
 */
export async function checkReopens(target: string, parts: Parts): Promise<void> {
  const reduced: Parts = { ...parts }
  for (const sheet of workbookSheets(parts)) {
    const bytes = parts[sheet.part]
    if (bytes && sheet.kind === 'worksheet') reduced[sheet.part] = withoutRows(bytes)
  }
  // Pivot cache records are read by no loader here (exceljs skips pivot parts); they were parsed and
  // counted with the other parts.
  for (const name of Object.keys(parts))
    if (/pivotCache/i.test(name) && contentTypeOf(parts, name) === RECORDS_TYPE) reduced[name] = NO_RECORDS
  await loadWorkbook(target, zipSync(reduced, { level: 0 })).catch((error: unknown) => {
    throw saveRefused(
      target,
      `it does not reopen (${error instanceof Error ? error.message : String(error)})`,
    )
  })
}
