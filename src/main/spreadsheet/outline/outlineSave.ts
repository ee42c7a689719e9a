import type { CellValue, Worksheet } from 'exceljs'
import ListXform from 'exceljs/lib/xlsx/xform/list-xform.js'
import RowXform from 'exceljs/lib/xlsx/xform/sheet/row-xform.js'
import { isGeneralFormat, valueSnapshot } from '../cells/cellValue'
import { writeCell } from '../cells/writeCell'
import type { ReadContext } from '../ooxml/exceljsLoad'
import { displayLength, type OutsideWidths } from '../workbook/prepareSave'
import { type SaveReport, saveWorkbook, type WriteBytes } from '../workbook/saveWorkbook'
import { installCompactCells } from './compactCells'
import { originalValue, readNumber, type StyleModel, styleOf } from './originalCells'
import type { Outline, OutlineSheet } from './outlineWorkbook'
import {
  type CellTag,
  eachCell,
  findRow,
  firstRowAbove,
  isNumberType,
  isType,
  readInteger,
  readRow,
  rowEnd,
} from './sheetRows'
import { type SpliceInput, spliceRows } from './spliceRows'

// Saving a workbook that was only outlined: the rows with pending writes are read into exceljs cells
// (as a whole load would have them) and written to; exceljs writes the workbook from the cells it holds,
// and the rows it does not hold are copied from the parts as read (spliceRows.ts). Columns the save
// sizes to their content count those rows too.

interface RowModel {
  number: number
}

/** The text of rows `numbers` of the part (those it has), inside a sheetData element. */
async function* rowsText(sheet: OutlineSheet, numbers: number[]): AsyncGenerator<string> {
  const { rows, dataEnd } = sheet.scan
  const xml = Buffer.from(sheet.xml.buffer, sheet.xml.byteOffset, sheet.xml.byteLength)
  yield '<sheetData>'
  for (const number of numbers) {
    const i = findRow(rows, number)
    if (i >= 0) yield xml.toString('utf8', rows.starts[i]!, rowEnd(rows, i, dataEnd))
  }
  yield '</sheetData>'
}

/** Reads rows `numbers` of the part into `ws` as exceljs's own load would have (parsed, reconciled). */
async function loadRows(
  ws: Worksheet,
  sheet: OutlineSheet,
  numbers: number[],
  read: ReadContext,
  date1904: boolean,
) {
  await installCompactCells()
  const rowXform = new RowXform()
  const list = new ListXform({ tag: 'sheetData', count: false, empty: true, childXform: rowXform })
  const models = ((await list.parseStream(rowsText(sheet, numbers))) ?? []) as RowModel[]
  // No hyperlinks or comments: an editable sheet has neither (outlineWorkbook.ts).
  const options = {
    styles: read.styles,
    sharedStrings: read.sharedStrings,
    date1904,
    formulae: {},
    hyperlinkMap: {},
    commentsMap: {},
  }
  for (const model of models) {
    rowXform.reconcile(model, options)
    ;(ws.getRow(model.number) as unknown as { model: RowModel }).model = model
  }
}

/**
 * The rows of sheet `id` past the loaded ones that the save must hold as cells: every row of an area
 * the agent wrote (the kept writes are there, and the save pass styles and reads cells there).
 */
function rowsToLoad(outline: Outline, id: number, sheet: OutlineSheet): number[] {
  const numbers = new Set<number>()
  for (const area of outline.open.touched.get(id) ?? [])
    for (let r = Math.max(area.top, sheet.lastLoadedRow + 1); r <= area.bottom; r++) numbers.add(r)
  return [...numbers].sort((a, b) => a - b)
}

/** Makes the kept writes to rows past the loaded ones, in the order they came, on the loaded cells. */
function writeKept(outline: Outline, ws: Worksheet, sheet: OutlineSheet): void {
  const date1904 = outline.open.date1904
  for (const call of outline.edits?.calls ?? []) {
    if (call.sheetId !== ws.id) continue
    for (const [i, line] of call.values.entries()) {
      const r = call.start.row + i
      if (r <= sheet.lastLoadedRow || line.length === 0) continue
      const row = ws.getRow(r)
      for (const [j, input] of line.entries()) writeCell(row.getCell(call.start.col + j), input, date1904)
    }
  }
}

/** Reads the rows the save needs as cells into exceljs and writes to them; returns them per sheet id. */
async function applyPending(outline: Outline): Promise<Map<number, Set<number>>> {
  const written = new Map<number, Set<number>>()
  const { open } = outline
  for (const [id, sheet] of outline.sheets) {
    const ws = open.workbook.getWorksheet(id)
    const numbers = rowsToLoad(outline, id, sheet)
    if (!ws || numbers.length === 0) continue
    await loadRows(ws, sheet, numbers, outline.read, open.date1904)
    writeKept(outline, ws, sheet)
    written.set(id, new Set(numbers))
  }
  return written
}

/** Characters cells of a sheet show, as `autoWidth` counts them, read from the part's bytes. */
class WidthReader {
  /** By shared-string index: strings repeat down a column. */
  private readonly strings = new Map<number, number>()

  constructor(
    private readonly read: ReadContext,
    private readonly date1904: boolean,
    private readonly dateLengths: Map<string, number>,
  ) {}

  /** The length of `cell` (0: empty), or -1 when it cannot beat `best`. */
  length(xml: Uint8Array, cell: CellTag, style: StyleModel, bold: number, best: number): number {
    if (isType(xml, cell, 's')) {
      const index = readInteger(xml, cell.valueStart, cell.valueEnd)
      let length = this.strings.get(index)
      if (length === undefined) {
        length = this.ofValue(originalValue(xml, cell, style, this.read, this.date1904), style)
        this.strings.set(index, length)
      }
      return length
    }
    if (isNumberType(xml, cell) && isGeneralFormat(style.numFmt)) {
      // A number in General shows at most 11 characters.
      if (11 * bold <= best) return -1
      return Math.min(String(readNumber(xml, cell.valueStart, cell.valueEnd)).length, 11)
    }
    return this.ofValue(originalValue(xml, cell, style, this.read, this.date1904), style)
  }

  private ofValue(value: CellValue, style: StyleModel): number {
    if (value === null || value === undefined) return 0
    const shown = () => valueSnapshot(value, style.numFmt, this.date1904)
    return displayLength({ value, numFmt: style.numFmt }, shown, this.dateLengths)
  }
}

/** autoWidth's fold over the rows exceljs does not hold, read from the parts. */
function outsideWidths(outline: Outline, written: Map<number, Set<number>>): OutsideWidths {
  const { read, open } = outline
  return (ws, columns, longest, dateLengths) => {
    const sheet = outline.sheets.get(ws.id)
    if (!sheet) return
    const wanted = new Set(columns)
    const skip = written.get(ws.id)
    const widths = new WidthReader(read, open.date1904, dateLengths)
    const { rows, dataEnd } = sheet.scan
    const xml = sheet.xml
    const visit = (cell: CellTag) => {
      if (cell.valueStart < 0 || !wanted.has(cell.col)) return
      const style = styleOf(read, cell.style)
      const bold = style.font?.bold ? 1.1 : 1
      const best = longest.get(cell.col)!
      const length = widths.length(xml, cell, style, bold, best)
      if (length > 0) longest.set(cell.col, Math.max(best, length * bold))
    }
    for (let i = firstRowAbove(rows, sheet.lastLoadedRow); i < rows.count; i++) {
      if (skip?.has(rows.numbers[i]!)) continue
      const end = rowEnd(rows, i, dataEnd)
      const row = readRow(xml, rows.starts[i]!, end)
      if (!row.empty) eachCell(xml, row.contentStart, end, visit)
    }
  }
}

/**
 * Saves an outlined workbook (with its pending writes) to `target`, verified as every save is. The
 * outline must not be used afterwards: its exceljs rows and its parts no longer match the file.
 */
export async function saveOutline(outline: Outline, target: string, write: WriteBytes): Promise<SaveReport> {
  const written = await applyPending(outline)
  const splices = new Map<number, SpliceInput>()
  for (const [id, sheet] of outline.sheets)
    splices.set(id, {
      sheet,
      written: written.get(id) ?? new Set(),
      read: outline.read,
      area: outline.areas.get(id),
    })
  return saveWorkbook(outline.open, target, write, {
    outside: outsideWidths(outline, written),
    transform: (id, xml, registries) => {
      const splice = splices.get(id)
      return splice ? spliceRows(xml, splice, registries) : xml
    },
  })
}
