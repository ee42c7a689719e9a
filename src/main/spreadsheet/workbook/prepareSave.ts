import type { Cell, Worksheet } from 'exceljs'
import type { Area } from '../cells/address'
import { cellKey, columnLetters } from '../cells/address'
import { hasExplicitStyle, restyle } from '../cells/cellStyle'
import { type CellSnapshot, isFormulaCell, isGeneralFormat, snapshot } from '../cells/cellValue'
import { displayText } from '../cells/displayValue'
import { eachExistingCell } from '../cells/sheetCells'
import type { OpenWorkbook } from './openWorkbook'

export interface PassReport {
  /** `Sheet!C` -> width set from content. */
  widths: Record<string, number>
  /** Cells styled as table titles, e.g. `Sales!A1`. */
  titles: string[]
  /** Cells whose quoted number format was unquoted. */
  unquoted: string[]
}

const TITLE_FILLS = ['FFDDEBF7', 'FFE2EFDA', 'FFFCE4D6', 'FFFFF2CC', 'FFEDE1F5', 'FFD9E1F2']
const MIN_WIDTH = 4
const MAX_WIDTH = 60

/** Columns whose width the pass chose (they still count as "default" at the next save). */
const autoWidths = new WeakMap<Worksheet, Set<number>>()

/** The columns of `ws` the pass sized (a workbook read again from its file carries them over). */
export function autoSizedColumns(ws: Worksheet): number[] {
  return [...(autoWidths.get(ws) ?? [])]
}

export function markAutoSized(ws: Worksheet, columns: number[]): void {
  const mine = autoWidths.get(ws) ?? new Set<number>()
  for (const c of columns) mine.add(c)
  autoWidths.set(ws, mine)
}

/** What the width of a cell's content depends on: its value as exceljs holds it and its format. */
export interface SizedCell {
  value: unknown
  numFmt?: string
}

/**
 * Characters the cell's text takes; `shown` is its snapshot (taken only when the value's own text is not
 * its display).
 */
export function displayLength(
  cell: SizedCell,
  shown: () => CellSnapshot,
  dateLengths: Map<string, number>,
): number {
  const value = cell.value
  if (typeof value === 'string') return longestLine(value)
  if (typeof value === 'number' && isGeneralFormat(cell.numFmt)) return Math.min(String(value).length, 11)
  if (value instanceof Date) {
    // A date format shows every date with (nearly) the same width: format one per format.
    const format = cell.numFmt ?? ''
    let length = dateLengths.get(format)
    if (length === undefined) {
      length = longestLine(displayText(shown()))
      dateLengths.set(format, length)
    }
    return length
  }
  return longestLine(displayText(shown()))
}

function longestLine(text: string): number {
  if (!text.includes('\n')) return text.length
  return Math.max(...text.split('\n').map((l) => l.length))
}

/**
 * Widths from rows exceljs does not hold (an outlined sheet): folds each of their cells in `columns` into
 * `longest` as `autoWidth` does its own rows.
 */
export type OutsideWidths = (
  ws: Worksheet,
  columns: number[],
  longest: Map<number, number>,
  dateLengths: Map<string, number>,
) => void

function autoWidth(
  ws: Worksheet,
  areas: Area[],
  date1904: boolean,
  report: PassReport,
  outside?: OutsideWidths,
): void {
  const mine = autoWidths.get(ws) ?? new Set<number>()
  autoWidths.set(ws, mine)
  const columns = new Set<number>()
  // Columns past the last one holding a cell have no content to size by.
  const last = ws.columnCount
  for (const a of areas) for (let c = a.left; c <= Math.min(a.right, last); c++) columns.add(c)
  const wanted = [...columns].filter((c) => ws.getColumn(c).width === undefined || mine.has(c))
  if (wanted.length === 0) return
  const longest = new Map(wanted.map((c) => [c, 0]))
  const dateLengths = new Map<string, number>()
  // One pass over the rows for all columns (exceljs column iteration walks every row per column).
  ws.eachRow((row) => {
    for (const c of wanted) {
      const cell = row.findCell(c)
      if (!cell || cell.value === null || cell.value === undefined) continue
      const length = displayLength(cell, () => snapshot(cell, date1904), dateLengths)
      const best = longest.get(c)!
      // Style lookups are slow in exceljs: only for a cell that could be the new longest.
      if (length * 1.1 <= best || (cell.isMerged && cell.master !== cell)) continue
      longest.set(c, Math.max(best, length * (cell.font?.bold ? 1.1 : 1)))
    }
  })
  outside?.(ws, wanted, longest, dateLengths)
  for (const c of wanted) {
    const chars = longest.get(c)!
    if (chars === 0) continue
    const width = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, chars + 2)) * 100) / 100
    ws.getColumn(c).width = width
    mine.add(c)
    report.widths[`${ws.name}!${columnLetters(c)}`] = width
  }
}

function isText(cell: Cell | undefined): cell is Cell {
  return !!cell && !isFormulaCell(cell) && typeof cell.value === 'string' && cell.value.trim() !== ''
}

function isNumberOrFormula(cell: Cell | undefined): boolean {
  if (!cell) return false
  return isFormulaCell(cell) || typeof cell.value === 'number' || cell.value instanceof Date
}

function inAreas(areas: Area[], row: number, col: number): boolean {
  return areas.some((a) => row >= a.top && row <= a.bottom && col >= a.left && col <= a.right)
}

/** Text runs standing directly above the first number of a column, grouped into tables by header row. */
function tableTitles(ws: Worksheet, areas: Area[], report: PassReport): void {
  const runs: { col: number; header: number; cells: Cell[] }[] = []
  const seen = new Set<number>()
  for (const a of areas) {
    eachExistingCell(ws, { ...a, top: Math.max(a.top, 2) }, (below, r, c) => {
      if (!isNumberOrFormula(below) || !isText(ws.findCell(r - 1, c))) return
      const key = cellKey(r - 1, c)
      if (seen.has(key)) return
      seen.add(key)
      const cells: Cell[] = []
      for (let up = r - 1; up >= 1; up--) {
        const cell = ws.findCell(up, c)
        if (!isText(cell) || !inAreas(areas, up, c)) break
        cells.push(cell)
      }
      if (cells.length > 0) runs.push({ col: c, header: r - 1, cells })
    })
  }
  runs.sort((x, y) => x.header - y.header || x.col - y.col)
  let table = -1
  let previous: { col: number; header: number } | undefined
  for (const run of runs) {
    if (!previous || previous.header !== run.header || run.col !== previous.col + 1) table++
    previous = run
    const argb = TITLE_FILLS[table % TITLE_FILLS.length]!
    for (const cell of run.cells) {
      if (hasExplicitStyle(cell)) continue
      restyle(cell, (style) => ({
        ...style,
        font: { ...(style.font ?? {}), bold: true },
        fill: { type: 'pattern', pattern: 'solid', fgColor: { argb } },
      }))
      report.titles.push(`${ws.name}!${cell.address}`)
    }
  }
}

const QUOTED_FORMAT = /^"([^"]*[#0?][^"]*)"$/

function unquoteFormats(ws: Worksheet, areas: Area[], report: PassReport): void {
  for (const a of areas)
    eachExistingCell(ws, a, (cell) => {
      const m = cell.numFmt ? QUOTED_FORMAT.exec(cell.numFmt) : null
      if (!m) return
      restyle(cell, (style) => ({ ...style, numFmt: m[1]! }))
      report.unquoted.push(`${ws.name}!${cell.address}`)
    })
}

/** The deterministic pass every save runs over what the agent touched. */
export function prepareSave(open: OpenWorkbook, outside?: OutsideWidths): PassReport {
  const report: PassReport = { widths: {}, titles: [], unquoted: [] }
  for (const ws of open.workbook.worksheets) {
    const areas = open.touched.get(ws.id)
    if (!areas || areas.length === 0) continue
    unquoteFormats(ws, areas, report)
    tableTitles(ws, areas, report)
    autoWidth(ws, areas, open.date1904, report, outside)
  }
  return report
}

export function unquoteFormat(format: string): string {
  return QUOTED_FORMAT.exec(format)?.[1] ?? format
}
