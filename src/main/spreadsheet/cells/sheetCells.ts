import type { Cell, Worksheet } from 'exceljs'
import type { Area } from './address'

/**
 * Calls `fn` for every cell the sheet holds inside `area`, row by row, never creating one: the work is
 * bounded by the rows and cells the sheet has, not by the size of the area (A:XFD is 17 billion cells).
 */
export function eachExistingCell(
  ws: Worksheet,
  area: Area,
  fn: (cell: Cell, row: number, col: number) => void,
): void {
  const last = Math.min(area.bottom, ws.rowCount)
  for (let r = area.top; r <= last; r++) {
    const row = ws.findRow(r)
    if (!row) continue
    const right = Math.min(area.right, row.cellCount)
    for (let c = area.left; c <= right; c++) {
      const cell = row.findCell(c)
      if (cell) fn(cell, r, c)
    }
  }
}

/** Grows a bounding box to hold a cell. */
export class CellBox {
  count = 0
  private box: Area | undefined

  add(row: number, col: number): void {
    this.count++
    const b = this.box
    if (!b) {
      this.box = { top: row, left: col, bottom: row, right: col }
      return
    }
    if (row < b.top) b.top = row
    if (row > b.bottom) b.bottom = row
    if (col < b.left) b.left = col
    if (col > b.right) b.right = col
  }

  get area(): Area | undefined {
    return this.box && { ...this.box }
  }
}

/** How many cells of `area` the sheet holds (costs what the sheet holds, like eachExistingCell). */
export function countExistingCells(ws: Worksheet, area: Area): number {
  let count = 0
  eachExistingCell(ws, area, () => {
    count++
  })
  return count
}

/** How many of the rows `top` to `bottom` the sheet holds. */
export function countExistingRows(ws: Worksheet, top: number, bottom: number): number {
  let count = 0
  for (let r = top; r <= Math.min(bottom, ws.rowCount); r++) if (ws.findRow(r)) count++
  return count
}
