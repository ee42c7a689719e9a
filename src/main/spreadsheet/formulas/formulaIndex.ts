import type { Cell, Workbook, Worksheet } from 'exceljs'
import { type Area, cellKey, MAX_COLUMNS } from '../cells/address'
import { isFormulaCell } from '../cells/cellValue'
import { eachExistingCell } from '../cells/sheetCells'

/** Formula cells per worksheet, keyed by cellKey: kept up to date so a write need not rescan. */
export type FormulaIndex = Map<Worksheet, Map<number, Cell>>

export function buildFormulaIndex(workbook: Workbook): FormulaIndex {
  const index: FormulaIndex = new Map()
  for (const ws of workbook.worksheets) {
    const cells = new Map<number, Cell>()
    ws.eachRow((row, r) =>
      row.eachCell((cell, c) => {
        if (isFormulaCell(cell)) cells.set(cellKey(r, c), cell)
      }),
    )
    index.set(ws, cells)
  }
  return index
}

/** Forgets the formula cells inside `area` by walking the index, when it holds fewer cells than the area. */
function forgetInside(known: Map<number, Cell>, area: Area): boolean {
  if (known.size > (area.bottom - area.top + 1) * (area.right - area.left + 1)) return false
  for (const key of known.keys()) {
    const row = Math.floor(key / MAX_COLUMNS)
    const col = (key % MAX_COLUMNS) + 1
    if (row >= area.top && row <= area.bottom && col >= area.left && col <= area.right) known.delete(key)
  }
  return true
}

/**
 * Brings the index up to date after cells of `area` were written. `noFormulas`: the write put no formula
 * there (set_range of plain values), so only formulas it overwrote leave the index.
 */
export function updateFormulaIndex(index: FormulaIndex, ws: Worksheet, area: Area, noFormulas = false): void {
  let cells = index.get(ws)
  if (!cells) {
    cells = new Map()
    index.set(ws, cells)
  }
  const known = cells
  if (noFormulas && forgetInside(known, area)) return
  // Only a cell the sheet holds can hold a formula (cells leave a sheet only when rows or columns move,
  // which rebuilds the index): the walk costs what the sheet holds, not the size of the area.
  eachExistingCell(ws, area, (cell, r, c) => {
    if (isFormulaCell(cell)) known.set(cellKey(r, c), cell)
    else known.delete(cellKey(r, c))
  })
}
