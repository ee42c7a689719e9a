import type { CellValue, Style } from 'exceljs'
import utils from 'exceljs/lib/utils/utils.js'
import type { ReadContext } from '../ooxml/exceljsLoad'
import { decodeXml } from '../ooxml/packageParts'
import type { OutlineSheet } from './outlineWorkbook'
import { asciiText, type CellTag, eachCell, findRow, isType, readInteger, readRow, rowEnd } from './sheetRows'

// The cells of a row an outline did not load, read from the part's bytes as exceljs would read them
// (`CellXform.parseClose` and `reconcile` of exceljs 4.4.0): shared strings resolved, numbers under a
// date format made dates, a style id of 0 read as no style.

export type StyleModel = Partial<Style>

const NO_STYLE: StyleModel = Object.freeze({})

export interface OriginalCell {
  value: CellValue
  style: StyleModel
}

export interface OriginalRow {
  /** The row's own style (new cells in it take their format from it). */
  style: StyleModel
  cells: Map<number, OriginalCell>
}

/** exceljs reads `s="0"` (falsy) as no style at all. */
export function styleOf(read: ReadContext, id: number): StyleModel {
  return (id && read.styles.getStyleModel(id)) || NO_STYLE
}

function text(xml: Uint8Array, start: number, end: number): string {
  return Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength).toString('utf8', start, end)
}

/** The value exceljs holds for a cell (null: empty). */
export function originalValue(
  xml: Uint8Array,
  cell: CellTag,
  style: StyleModel,
  read: ReadContext,
  date1904: boolean,
): CellValue {
  if (cell.valueStart < 0) return null
  const { valueStart: start, valueEnd: end } = cell
  if (isType(xml, cell, 's')) return read.sharedStrings.getString(readInteger(xml, start, end)) ?? null
  if (isType(xml, cell, 'b')) return Number.parseInt(asciiText(xml, start, end), 10) !== 0
  if (isType(xml, cell, 'e')) return { error: decodeXml(text(xml, start, end)) } as CellValue
  const number = readNumber(xml, start, end)
  return style.numFmt && utils.isDateFmt(style.numFmt) ? utils.excelToDate(number, date1904) : number
}

/** `parseFloat` of the text, without building a string for a plain integer. */
export function readNumber(xml: Uint8Array, start: number, end: number): number {
  const integer = readInteger(xml, start, end)
  return Number.isNaN(integer) ? Number.parseFloat(asciiText(xml, start, end)) : integer
}

/** Row `number` as exceljs would hold it, or undefined when the part has no such row. */
export function originalRow(
  sheet: OutlineSheet,
  read: ReadContext,
  number: number,
  date1904: boolean,
): OriginalRow | undefined {
  const { rows, dataEnd } = sheet.scan
  const i = findRow(rows, number)
  if (i < 0) return undefined
  const cells = new Map<number, OriginalCell>()
  const xml = sheet.xml
  const end = rowEnd(rows, i, dataEnd)
  const row = readRow(xml, rows.starts[i]!, end)
  if (!row.empty)
    eachCell(xml, row.contentStart, end, (cell) => {
      const style = styleOf(read, cell.style)
      cells.set(cell.col, { value: originalValue(xml, cell, style, read, date1904), style })
    })
  return { style: styleOf(read, row.style), cells }
}

/** Style ids of row `number`'s cells and of the row itself, without reading values (undefined: no such row). */
export function originalStyles(
  sheet: OutlineSheet,
  number: number,
): { row: number; cells: Map<number, number> } | undefined {
  const { rows, dataEnd } = sheet.scan
  const i = findRow(rows, number)
  if (i < 0) return undefined
  const cells = new Map<number, number>()
  const end = rowEnd(rows, i, dataEnd)
  const row = readRow(sheet.xml, rows.starts[i]!, end)
  if (!row.empty) eachCell(sheet.xml, row.contentStart, end, (cell) => cells.set(cell.col, cell.style))
  return { row: row.style, cells }
}
