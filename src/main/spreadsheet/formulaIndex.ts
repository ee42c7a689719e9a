import type { Cell, Workbook, Worksheet } from 'exceljs'
import type { Area } from './address'
import { isFormulaCell } from './cellValue'

/** Formula cells per worksheet, keyed by `row * 16384 + col`: kept up to date so a write need not rescan. */
export type FormulaIndex = Map<Worksheet, Map<number, Cell>>

export const cellKey = (row: number, col: number) => row * 16_384 + col

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
  for (let r = area.top; r <= area.bottom; r++) {
    const row = ws.findRow(r)
    for (let c = area.left; c <= area.right; c++) {
      const cell = row?.findCell(c)
      if (cell && isFormulaCell(cell)) cells.set(cellKey(r, c), cell)
      else cells.delete(cellKey(r, c))
    }
  }
}
