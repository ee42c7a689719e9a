import type { Cell, Worksheet } from 'exceljs'
import { type Area, areaName, type CellRef, cellName, MAX_COLUMNS, MAX_ROWS } from '../cells/address'
import { type AreaRequest, areaLabel, refuseLargeArea } from '../cells/areaLimits'
import { hasStyle, rowStyle, setRowStyle } from '../cells/cellStyle'
import { isFormulaCell, plainSnapshot } from '../cells/cellValue'
import { inheritFormat } from '../cells/inheritFormat'
import { CellBox, eachExistingCell } from '../cells/sheetCells'
import { usedArea } from '../cells/usedRange'
import { type CellInput, formulaInInput, writeCell } from '../cells/writeCell'
import { invalidInput } from '../errors'
import { FormulaChecker, type FormulaTarget } from '../formulas/checkFormula'
import { type Splice, slideFormula, spliceFormula } from '../formulas/formulaRefs'
import type { OpenWorkbook } from '../workbook/openWorkbook'

function pastSheetEdge(area: Area): boolean {
  return area.bottom > MAX_ROWS || area.right > MAX_COLUMNS
}

/** Refuses the whole block, before any cell changes, when one of its formulas cannot be written. */
function checkTypedFormulas(open: OpenWorkbook, ws: Worksheet, start: CellRef, values: CellInput[][]): void {
  const batch: (FormulaTarget & { formula: string })[] = []
  values.forEach((line, i) => {
    line.forEach((value, j) => {
      const formula = formulaInInput(value)
      if (formula !== undefined)
        batch.push({ formula, sheet: ws.name, label: cellName(start.row + i, start.col + j) })
    })
  })
  if (batch.length > 0) new FormulaChecker(open.sheetNames()).checkAll(batch, 'text')
}

/** The area a block of values written at `start` covers; refuses an empty block or one past the edge. */
export function blockArea(start: CellRef, values: CellInput[][]): Area {
  if (values.length === 0)
    throw invalidInput('values is empty; give a 2-D array such as [["Name", "Qty"], ["Pens", 3]]')
  let width = 0
  for (let i = 0; i < values.length; i++) width = Math.max(width, values[i]!.length)
  if (width === 0) throw invalidInput('values has only empty rows')
  const area = {
    top: start.row,
    left: start.col,
    bottom: start.row + values.length - 1,
    right: start.col + width - 1,
  }
  if (pastSheetEdge(area)) throw invalidInput('values reach past the last row or column of the sheet')
  return area
}

export function setValues(open: OpenWorkbook, ws: Worksheet, start: CellRef, values: CellInput[][]): Area {
  const area = blockArea(start, values)
  checkTypedFormulas(open, ws, start, values)
  let formulas = false
  values.forEach((line, i) => {
    const row = ws.getRow(start.row + i)
    line.forEach((value, j) => {
      const cell = row.getCell(start.col + j)
      writeCell(cell, value, open.date1904)
      if (formulaInInput(value) === undefined) return
      formulas = true
      inheritFormat(open, ws, cell)
    })
  })
  open.changed(ws, area, !formulas)
  return area
}

/** Where appended rows start: below the used area, in its first column. */
export function belowUsed(used: Area | undefined): CellRef {
  return { row: used ? used.bottom + 1 : 1, col: used ? used.left : 1 }
}

export function appendRows(open: OpenWorkbook, ws: Worksheet, rows: CellInput[][]): Area {
  return setValues(open, ws, belowUsed(usedArea(ws)), rows)
}

export type ClearWhat = 'contents' | 'formats' | 'all'

export interface ClearOutcome {
  /** Cells cleared, and the box around them. */
  cells: CellBox
  /** Column and row styles removed (clearing formats of whole columns or rows). */
  notes: string[]
}

/**
 * Clears the cells the sheet holds inside the area (an empty cell has nothing to clear, so A:XFD costs
 * what the sheet holds, not 17 billion cells); clearing formats of whole columns or rows also drops their
 * column or row style.
 */
export function clearArea(
  open: OpenWorkbook,
  ws: Worksheet,
  req: AreaRequest,
  what: ClearWhat,
): ClearOutcome {
  const { area } = req
  const cells = new CellBox()
  eachExistingCell(ws, area, (cell, r, c) => {
    let cleared = false
    if (what !== 'formats' && cell.value !== null && cell.value !== undefined) {
      cell.value = null
      cleared = true
    }
    if (what !== 'contents' && hasStyle(cell.style)) {
      cell.style = {}
      cleared = true
    }
    if (cleared) cells.add(r, c)
  })
  const notes: string[] = []
  if (what !== 'contents') {
    const columns = ws.columns ?? []
    let styledColumns = 0
    if (req.wholeColumns)
      for (let c = area.left; c <= Math.min(area.right, columns.length); c++) {
        const column = ws.getColumn(c)
        if (!hasStyle(column.style)) continue
        column.style = {}
        styledColumns++
      }
    if (styledColumns > 0)
      notes.push(`the style of ${styledColumns} column(s) in ${areaLabel(area)} was removed`)
    let styledRows = 0
    if (req.wholeRows)
      for (let r = area.top; r <= Math.min(area.bottom, ws.rowCount); r++) {
        const row = ws.findRow(r)
        if (!row || !hasStyle(rowStyle(row))) continue
        setRowStyle(row, {})
        styledRows++
      }
    if (styledRows > 0) notes.push(`the style of ${styledRows} row(s) in ${areaLabel(area)} was removed`)
  }
  const box = cells.area
  if (box) open.changed(ws, box)
  else if (notes.length > 0) open.changed(ws)
  return { cells, notes }
}

/** Plain formulas everywhere: shared formulas point at a master cell that moves when rows move. */
export function unshareFormulas(open: OpenWorkbook): void {
  for (const ws of open.workbook.worksheets)
    ws.eachRow((row) =>
      row.eachCell((cell) => {
        const value = cell.value as { sharedFormula?: string; result?: unknown } | null
        if (value && typeof value === 'object' && 'sharedFormula' in value) {
          const result = value.result
          cell.value = { formula: cell.formula } as Cell['value']
          ;(cell as unknown as { _value: { result: unknown } })._value.result = result
        }
      }),
    )
}

function rewriteAllFormulas(open: OpenWorkbook, rewrite: (formula: string, sheet: string) => string): void {
  for (const ws of open.workbook.worksheets)
    ws.eachRow((row) =>
      row.eachCell((cell) => {
        if (!isFormulaCell(cell)) return
        const value = cell.value as { formula?: string; result?: unknown }
        if (value.formula === undefined) return
        const next = rewrite(value.formula, ws.name)
        if (next === value.formula) return
        const result = value.result
        cell.value = { ...value, formula: next } as Cell['value']
        ;(cell as unknown as { _value: { result: unknown } })._value.result = result
      }),
    )
}

/**
 * exceljs's spliceRows moves the rows below a deletion up and forgets the sources, but when the deleted
 * rows reach its last row there is nothing to move and only a deletion starting at that last row is
 * forgotten: the other deleted rows stayed. Here they are forgotten too.
 */
function deleteRows(ws: Worksheet, at: number, count: number): void {
  const rows = (ws as unknown as { _rows: unknown[] })._rows
  const last = rows.length
  ws.spliceRows(at, count)
  if (at + count > last) for (let r = at; r <= last; r++) rows[r - 1] = undefined
}

/** Inserts (count > 0) or deletes (count < 0) rows or columns and fixes every formula that points across. */
export function splice(
  open: OpenWorkbook,
  ws: Worksheet,
  axis: 'row' | 'col',
  at: number,
  count: number,
): void {
  unshareFormulas(open)
  if (axis === 'row') {
    if (count > 0) ws.spliceRows(at, 0, ...Array.from({ length: count }, () => []))
    else deleteRows(ws, at, -count)
  } else if (count > 0) ws.spliceColumns(at, 0, ...Array.from({ length: count }, () => []))
  else ws.spliceColumns(at, -count)
  const change: Splice = { sheet: ws.name, axis, at, count }
  rewriteAllFormulas(open, (formula, sheet) => spliceFormula(formula, sheet, change))
  // Chart and defined-name references always name their sheet.
  open.rewrites.push((formula) => spliceFormula(formula, '\u0000', change))
  open.moves.set(ws.id, [...(open.moves.get(ws.id) ?? []), { axis, at, count }])
  open.structureChanged()
}

export function renameInFormulas(open: OpenWorkbook, rewrite: (formula: string) => string): void {
  rewriteAllFormulas(open, (formula) => rewrite(formula))
}

interface CopiedCell {
  value: Cell['value']
  formula?: string
  style: Cell['style']
}

/** The cells of one row from column `left` to `right`: values, formulas and deep-copied styles. */
function copyRow(ws: Worksheet, row: number, left: number, right: number): CopiedCell[] {
  const cells: CopiedCell[] = []
  for (let c = left; c <= right; c++) {
    const cell = ws.findCell(row, c)
    cells.push({
      value: cell ? cell.value : null,
      formula: cell && isFormulaCell(cell) ? cell.formula : undefined,
      style: cell ? JSON.parse(JSON.stringify(cell.style ?? {})) : {},
    })
  }
  return cells
}

/** Writes a copied cell that moved by `rows` and `cols`; its relative references move with it. */
function pasteCell(cell: Cell, item: CopiedCell, rows: number, cols: number): void {
  cell.value =
    item.formula !== undefined
      ? ({ formula: slideFormula(item.formula, rows, cols) } as Cell['value'])
      : item.value
  cell.style = item.style
}

export function copyArea(
  open: OpenWorkbook,
  from: Worksheet,
  area: Area,
  to: Worksheet,
  start: CellRef,
): Area {
  const target = {
    top: start.row,
    left: start.col,
    bottom: start.row + area.bottom - area.top,
    right: start.col + area.right - area.left,
  }
  if (pastSheetEdge(target))
    throw invalidInput(`the copy at ${areaName(target)} would reach past the last row or column of the sheet`)
  refuseLargeArea(from, area, 'copy_range')
  // Every cell of the target is written: what the target sheet does not hold yet is added to it.
  refuseLargeArea(to, target, 'copy_range')
  unshareFormulas(open)
  const copied: CopiedCell[][] = []
  for (let r = area.top; r <= area.bottom; r++) copied.push(copyRow(from, r, area.left, area.right))
  const dr = start.row - area.top
  const dc = start.col - area.left
  copied.forEach((line, i) => {
    line.forEach((item, j) => {
      pasteCell(to.getCell(start.row + i, start.col + j), item, dr, dc)
    })
  })
  open.changed(to, target)
  return target
}

function sortKey(cell: Cell | undefined, date1904: boolean): RankedValue {
  if (!cell) return [4, 0]
  const s = plainSnapshot(isFormulaCell(cell) ? cell.result : cell.value, date1904)
  switch (s.kind) {
    case 'number':
    case 'date':
      return [0, s.value as number]
    case 'text':
      return [1, String(s.value).toLowerCase()]
    case 'boolean':
      return [2, s.value ? 1 : 0]
    case 'error':
      return [3, 0]
    default:
      return [4, 0]
  }
}

export interface SortKey {
  col: number
  descending: boolean
}

type RankedValue = [number, number | string]

function compareKey(a: RankedValue, b: RankedValue, descending: boolean): number {
  // Blanks stay last in either direction, as in a spreadsheet.
  if (a[0] === 4 || b[0] === 4) return a[0] - b[0]
  const order = a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)
  return descending ? -order : order
}

/**
 * Sorts the rows of an area by several columns, the first key first: numbers (and dates), then text (any
 * case), then booleans, then errors, blanks last in both directions; rows that tie keep their order.
 */
export function sortArea(open: OpenWorkbook, ws: Worksheet, area: Area, keys: SortKey[]): void {
  if (keys.length === 0) throw invalidInput('give at least one sort key')
  for (const key of keys)
    if (key.col < area.left || key.col > area.right)
      throw invalidInput('the sort column is outside the range')
  refuseLargeArea(ws, area, 'sort_range')
  unshareFormulas(open)
  const rows: { from: number; keys: RankedValue[]; cells: CopiedCell[] }[] = []
  for (let r = area.top; r <= area.bottom; r++) {
    const cells = copyRow(ws, r, area.left, area.right)
    rows.push({ from: r, keys: keys.map((k) => sortKey(ws.findCell(r, k.col), open.date1904)), cells })
  }
  rows.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const order = compareKey(a.keys[i]!, b.keys[i]!, keys[i]!.descending)
      if (order !== 0) return order
    }
    return 0
  })
  rows.forEach((row, i) => {
    const r = area.top + i
    row.cells.forEach((item, j) => {
      pasteCell(ws.getCell(r, area.left + j), item, r - row.from, 0)
    })
  })
  open.changed(ws, area)
}
