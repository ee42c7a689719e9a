import type { Worksheet } from 'exceljs'
import type { Area, CellRef } from '../cells/address'
import { cellCount } from '../cells/areaLimits'
import { snapshot, valueSnapshot } from '../cells/cellValue'
import { type CellInput, isTextFormat, plainValue, writeCell } from '../cells/writeCell'
import { blockArea, setValues } from '../methods/editing'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { autoSizedColumns, markAutoSized as markColumns } from '../workbook/prepareSave'
import type { AreaReceipt, CellReader } from '../workbook/receipt'
import { writeReceipt } from '../workbook/writeReceipt'
import { type OriginalRow, originalRow, originalStyles, styleOf } from './originalCells'
import { OutlineEdits, type WriteCall } from './outlineCalls'
import type { Outline } from './outlineWorkbook'

// Writes to a workbook that was only outlined (open, describe_worksheet), without loading every cell:
// rows exceljs holds (describe's first rows) are written as cells; later rows keep the writes here, by
// cell, until the save reads them into cells (outlineSave.ts). Only writes that store the value typed
// (numbers, booleans, text that stays text) go this way: a formula, a cleared cell or text typed as a
// number with a format (12%, 2024-03-01) needs the whole workbook and takes the usual path.

/**
 * True when every value is stored as typed, so the write needs no other cell of the workbook. A number
 * is not when the workbook has a text (`@`) format: a cell so formatted keeps it as text, and which cells
 * are is known only once they are loaded. Indexed loops: this runs once per call over up to a million
 * values, mostly before V8 has optimised it.
 */
function allPlain(values: CellInput[][], textFormats: boolean): boolean {
  for (let i = 0; i < values.length; i++) {
    const line = values[i]!
    for (let j = 0; j < line.length; j++) {
      const value = line[j]
      if (typeof value === 'boolean') continue
      if (typeof value === 'number') {
        if (textFormats) return false
        continue
      }
      if (plainValue(value ?? null) === undefined) return false
    }
  }
  return true
}

const textFormatsOf = new WeakMap<object, boolean>()

/** Whether any cell style of the workbook is the text format (styles are few: scanned once per outline). */
function hasTextFormat(outline: Outline): boolean {
  const { styles } = outline.read
  let found = textFormatsOf.get(styles)
  if (found === undefined) {
    found = false
    for (let id = 1; ; id++) {
      const style = styles.getStyleModel(id)
      if (!style) break
      if (isTextFormat(style.numFmt)) {
        found = true
        break
      }
    }
    textFormatsOf.set(styles, found)
  }
  return found
}

/** The box around the cells a block writes (a short or empty line leaves its cells as they are). */
function writtenBox(start: CellRef, values: CellInput[][]): Area | undefined {
  let box: Area | undefined
  for (let i = 0; i < values.length; i++) {
    const width = values[i]!.length
    if (width === 0) continue
    const row = start.row + i
    const right = start.col + width - 1
    if (!box) box = { top: row, bottom: row, left: start.col, right }
    else {
      box.bottom = row
      box.right = Math.max(box.right, right)
    }
  }
  return box
}

function union(a: Area | undefined, b: Area | undefined): Area | undefined {
  if (!a || !b) return a ?? b
  return {
    top: Math.min(a.top, b.top),
    left: Math.min(a.left, b.left),
    bottom: Math.max(a.bottom, b.bottom),
    right: Math.max(a.right, b.right),
  }
}

/** The number format cell `col` of a row shows a written value in: its own, else a new cell's (exceljs `Cell._mergeStyle`: the row's, else the column's). */
function writtenFormat(
  outline: Outline,
  ws: Worksheet,
  styles: { row: number; cells: Map<number, number> } | undefined,
  col: number,
): string | undefined {
  const own = styles?.cells.get(col)
  if (own !== undefined) return styleOf(outline.read, own).numFmt
  const fromRow = styles ? styleOf(outline.read, styles.row).numFmt : undefined
  if (fromRow) return fromRow
  const column = (ws.columns ?? [])[col - 1] as { style?: { numFmt?: string } } | undefined
  return column?.style?.numFmt
}

/**
 * Writes `values` at `start` of `ws` when it can be done without loading the sheet's cells; returns the
 * area written, or undefined (nothing written: the caller loads the workbook). Refuses the same bad
 * blocks as `setValues`, with the same messages.
 */
export function writeWithoutLoading(
  outline: Outline,
  ws: Worksheet,
  start: CellRef,
  values: CellInput[][],
): Area | undefined {
  const sheet = outline.sheets.get(ws.id)
  if (!sheet?.editable) return undefined
  const area = blockArea(start, values)
  if (!allPlain(values, hasTextFormat(outline))) return undefined
  const { open } = outline
  outline.edits ??= new OutlineEdits()
  // Rows exceljs holds are written now; the later ones are read from the call (`OutlineEdits.written`).
  const loaded = Math.min(values.length, sheet.lastLoadedRow - start.row + 1)
  for (let i = 0; i < loaded; i++) {
    const cells = ws.getRow(start.row + i)
    for (const [j, input] of values[i]!.entries())
      writeCell(cells.getCell(start.col + j), input, open.date1904)
  }
  open.changed(ws, area, true)
  outline.areas.set(ws.id, union(outline.areas.get(ws.id), writtenBox(start, values)))
  outline.edits.calls.push({ sheetId: ws.id, sheet: ws.name, start, values })
  return area
}

/** Reads any cell of `ws` in an outline: from exceljs, a kept write, or the part's bytes. */
export function outlineCellReader(outline: Outline, ws: Worksheet): CellReader {
  const { open, read } = outline
  const date1904 = open.date1904
  const sheet = outline.sheets.get(ws.id)
  const styles = new Map<number, ReturnType<typeof originalStyles>>()
  const rows = new Map<number, OriginalRow | undefined>()
  return (r, c) => {
    if (!sheet || r <= sheet.lastLoadedRow) return snapshot(ws.findCell(r, c), date1904)
    const written = outline.edits?.written(ws.id, r, c)
    if (written !== undefined) {
      // A kept write stored its value as typed and left the cell's style as it was.
      if (!styles.has(r)) styles.set(r, originalStyles(sheet, r))
      return valueSnapshot(plainValue(written), writtenFormat(outline, ws, styles.get(r), c), date1904)
    }
    if (!rows.has(r)) rows.set(r, originalRow(sheet, read, r, date1904))
    const cell = rows.get(r)?.cells.get(c)
    return valueSnapshot(cell?.value ?? null, cell?.style.numFmt, date1904)
  }
}

/** `writeWithoutLoading` and its area receipt; undefined when the write needs the whole workbook. */
export function writeOutlined(
  outline: Outline,
  ws: Worksheet,
  start: CellRef,
  values: CellInput[][],
): AreaReceipt | undefined {
  const area = writeWithoutLoading(outline, ws, start, values)
  if (!area) return undefined
  const outcome = { area, focus: area, changed: cellCount(area) }
  return writeReceipt(outline.open, ws, outcome, outlineCellReader(outline, ws))
}

/** Makes the outline's writes (and other changes) again on the workbook loaded whole, in the order they were made. */
export function replayCalls(open: OpenWorkbook, edits: OutlineEdits): void {
  const replays = edits.replays
  let next = 0
  const catchUp = (done: number) => {
    while (next < replays.length && replays[next]!.after <= done) replays[next++]!.run(open)
  }
  // By name: the sheet ids of the whole load need not be the outline's.
  edits.calls.forEach((call: WriteCall, i) => {
    catchUp(i)
    setValues(open, open.sheet(call.sheet), call.start, call.values)
  })
  catchUp(Number.POSITIVE_INFINITY)
}

/** Per sheet name, the columns the save pass sized in `open`. */
export function autoSizedOf(open: OpenWorkbook): Map<string, number[]> {
  return new Map(open.workbook.worksheets.map((ws) => [ws.name, autoSizedColumns(ws)]))
}

/** Carries the columns a save sized over to the workbook read again (by sheet name). */
export function markAutoSized(open: OpenWorkbook, sized: Map<string, number[]> | undefined): void {
  for (const ws of open.workbook.worksheets) {
    const columns = sized?.get(ws.name)
    if (columns?.length) markColumns(ws, columns)
  }
}

/** True when every sheet exceljs did not load whole can be saved from its bytes (`saveOutline`). */
export function savableOutline(outline: Outline): boolean {
  for (const sheet of outline.sheets.values()) if (!sheet.editable) return false
  return true
}
