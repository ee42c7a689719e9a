import type { Worksheet } from 'exceljs'
import { invalidInput } from '../errors'
import { type Area, areaName, columnLetters, MAX_COLUMNS, MAX_ROWS, parseArea } from './address'
import { countExistingCells } from './sheetCells'
import { usedArea } from './usedRange'

/**
 * Cells (or whole rows) one call may add to a sheet: exceljs holds about 300 bytes per styled cell, so
 * this stays near 100 MB. Cells the sheet already holds do not count (their memory is spent), so a call
 * costs at most what the sheet holds plus this; over it, the call is refused before anything changes.
 */
export const MAX_AREA_CELLS = 250_000

/** A range as the model asked for it, before it is fitted to the sheet. */
export interface AreaRequest {
  /** Unbounded: A:C is A1:C1048576, 2:5 is A2:XFD5. */
  area: Area
  /** Every row of the columns (A:C, A1:C1048576): column settings can stand for the cells. */
  wholeColumns: boolean
  /** Every column of the rows (2:5, A2:XFD5): row settings can stand for the cells. */
  wholeRows: boolean
}

export function requestArea(range: string): AreaRequest {
  const area = parseArea(range)
  return {
    area,
    wholeColumns: area.top === 1 && area.bottom === MAX_ROWS,
    wholeRows: area.left === 1 && area.right === MAX_COLUMNS,
  }
}

/** `A:C` for whole columns (and the whole sheet), `2:5` for whole rows, `A1:C3` otherwise. */
export function areaLabel(area: Area): string {
  if (area.top === 1 && area.bottom === MAX_ROWS)
    return `${columnLetters(area.left)}:${columnLetters(area.right)}`
  if (area.left === 1 && area.right === MAX_COLUMNS) return `${area.top}:${area.bottom}`
  return areaName(area)
}

export function cellCount(area: Area): number {
  return (area.bottom - area.top + 1) * (area.right - area.left + 1)
}

export const countText = (n: number) => n.toLocaleString('en-US')

/** Where the data is, to suggest a smaller range in a refusal. */
function usedRangeHint(ws: Worksheet): string {
  const used = usedArea(ws)
  return used ? `the used range of ${ws.name} is ${areaName(used)}` : `${ws.name} holds no values`
}

interface LimitOptions {
  /** Units the area has (default: its cells) and how many of them the sheet holds already. */
  units?: number
  held?: number
  unitName?: string
  advice?: string
}

/** True when working through `area` cell by cell adds at most MAX_AREA_CELLS cells to the sheet. */
export function fitsLimit(ws: Worksheet, area: Area): boolean {
  const total = cellCount(area)
  return total <= MAX_AREA_CELLS || total - countExistingCells(ws, area) <= MAX_AREA_CELLS
}

/**
 * Refuses, before anything changes, an operation that would add more than MAX_AREA_CELLS cells (or
 * rows) to the sheet by touching every one of `area`.
 */
export function refuseLargeArea(ws: Worksheet, area: Area, action: string, options: LimitOptions = {}): void {
  const units = options.units ?? cellCount(area)
  if (units <= MAX_AREA_CELLS) return
  const held = options.held ?? countExistingCells(ws, area)
  const empty = units - held
  if (empty <= MAX_AREA_CELLS) return
  const unit = options.unitName ?? 'cells'
  const advice = options.advice ? ` ${options.advice}` : ''
  throw invalidInput(
    `${areaLabel(area)} is ${countText(units)} ${unit}, ${countText(empty)} of them empty; ${action} works through at most ${countText(MAX_AREA_CELLS)} empty ${unit} at a time, so nothing was changed.${advice} Use a smaller range (${usedRangeHint(ws)}).`,
  )
}
