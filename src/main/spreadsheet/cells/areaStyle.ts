import type { Style, Worksheet } from 'exceljs'
import { type AreaRequest, areaLabel, refuseLargeArea } from './areaLimits'
import { hasStyle, restyle, rowStyle, type StylePatch, setRowStyle } from './cellStyle'
import { CellBox, countExistingRows, eachExistingCell } from './sheetCells'

export interface StyledArea {
  /** Cells whose own style changed, and the box around them. */
  cells: CellBox
  /** Column or row styles that stand for the empty rest of the area. */
  notes: string[]
}

/** The width exceljs writes for a styled column that has none. */
const EXCELJS_COLUMN_WIDTH = 9
/** Styled runs of more columns than this get that width set on their empty columns (see below). */
const WIDE_RUN = 100

const LINES_ADVICE = 'Whole columns (A:C) and whole rows (2:5) are styled without touching each cell.'

/**
 * Applies `patch` over an area the way a spreadsheet app does: whole columns get a column style and whole
 * rows a row style (cells added there later inherit it) plus the cells they already hold; any other area
 * is styled cell by cell, refused before anything changes when that fills more than MAX_AREA_CELLS empty
 * cells.
 */
export function styleArea(ws: Worksheet, req: AreaRequest, patch: StylePatch, action: string): StyledArea {
  const { area } = req
  const cells = new CellBox()
  const restyleCell = (cell: Parameters<typeof restyle>[0], r: number, c: number) => {
    restyle(cell, patch)
    cells.add(r, c)
  }
  if (req.wholeColumns) {
    const lastUsed = ws.columnCount
    const wide = area.right - area.left + 1 > WIDE_RUN
    for (let c = area.left; c <= area.right; c++) {
      const column = ws.getColumn(c)
      column.style = patch(column.style ?? {}) as Style
      // exceljs writes a styled column without a width as width 9, but compares the unset width when it
      // joins neighbours into one <col> run: A:XFD would be written as 16,384 runs. Empty columns get the
      // 9 it writes anyway; columns with content keep theirs unset for the save's auto-width.
      if (wide && c > lastUsed && column.width === undefined) column.width = EXCELJS_COLUMN_WIDTH
    }
    // A row style wins over a column style in empty cells: on the whole sheet the rows change too.
    if (req.wholeRows)
      for (let r = 1; r <= ws.rowCount; r++) {
        const row = ws.findRow(r)
        if (row && hasStyle(rowStyle(row))) setRowStyle(row, patch(rowStyle(row)))
      }
    eachExistingCell(ws, area, restyleCell)
    return { cells, notes: [`columns ${areaLabel(area)} carry it, so cells filled there later get it too`] }
  }
  if (req.wholeRows) {
    const held = countExistingRows(ws, area.top, area.bottom)
    refuseLargeArea(ws, area, action, { units: area.bottom - area.top + 1, held, unitName: 'rows' })
    for (let r = area.top; r <= area.bottom; r++) {
      const row = ws.getRow(r)
      setRowStyle(row, patch(rowStyle(row)))
      const width = row.cellCount
      for (let c = 1; c <= width; c++) {
        const cell = row.findCell(c)
        if (cell) restyleCell(cell, r, c)
      }
      // exceljs writes no row that holds no cell: one empty cell keeps the row and its style in the file.
      if (width === 0) row.getCell(1)
    }
    return { cells, notes: [`rows ${areaLabel(area)} carry it, so cells filled there later get it too`] }
  }
  refuseLargeArea(ws, area, action, { advice: LINES_ADVICE })
  for (let r = area.top; r <= area.bottom; r++) {
    const row = ws.getRow(r)
    for (let c = area.left; c <= area.right; c++) restyleCell(row.getCell(c), r, c)
  }
  return { cells, notes: [] }
}
