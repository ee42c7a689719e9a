import type { Cell, Workbook, Worksheet } from 'exceljs'
import { type Area, cellKey } from './address'
import { isFormulaCell } from './cellValue'
import { eachExistingCell } from './sheetCells'

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

export function updateFormulaIndex(index: FormulaIndex, ws: Worksheet, area: Area): void {
  let cells = index.get(ws)
  if (!cells) {
    cells = new Map()
    index.set(ws, cells)
  }
  const known = cells
  // Only a cell the sheet holds can hold a formula (cells leave a sheet only when rows or columns move,
  // which rebuilds the index): the walk costs what the sheet holds, not the size of the area.
  eachExistingCell(ws, area, (cell, r, c) => {
    if (isFormulaCell(cell)) known.set(cellKey(r, c), cell)
    else known.delete(cellKey(r, c))
  })
}
