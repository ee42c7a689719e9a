import { AppError } from '../../../shared/errors'

export const MAX_ROWS = 1_048_576
export const MAX_COLUMNS = 16_384

export interface CellRef {
  row: number
  col: number
}

/** One number per cell; `keyCell` turns it back (column XFD included). */
export const cellKey = (row: number, col: number) => row * MAX_COLUMNS + col - 1

export function keyCell(key: number): CellRef {
  return { row: Math.floor(key / MAX_COLUMNS), col: (key % MAX_COLUMNS) + 1 }
}

export interface Area {
  top: number
  left: number
  bottom: number
  right: number
}

export function columnLetters(col: number): string {
  let n = col
  let out = ''
  while (n > 0) {
    const rem = (n - 1) % 26
    out = String.fromCharCode(65 + rem) + out
    n = Math.floor((n - 1) / 26)
  }
  return out
}

export function columnNumber(letters: string): number {
  let n = 0
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64)
  return n
}

export function cellName(row: number, col: number): string {
  return `${columnLetters(col)}${row}`
}

export function areaName(area: Area): string {
  const first = cellName(area.top, area.left)
  const last = cellName(area.bottom, area.right)
  return first === last ? first : `${first}:${last}`
}

const CELL = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/

function badAddress(text: string, what: string): AppError {
  return new AppError(
    'VALIDATION_FAILED',
    `"${text}" is not a valid ${what} (use A1 style, e.g. ${what === 'cell' ? 'B2' : 'A1:C10'})`,
  )
}

export function parseCell(text: string): CellRef {
  const match = CELL.exec(text.trim())
  if (!match) throw badAddress(text, 'cell')
  const col = columnNumber(match[1]!)
  const row = Number(match[2])
  if (row < 1 || row > MAX_ROWS || col > MAX_COLUMNS) throw badAddress(text, 'cell')
  return { row, col }
}

/** Parses `A1`, `A1:C3`, whole columns `A:C` and whole rows `2:5` (bounded by `limit` when given). */
export function parseArea(text: string, limit?: Area): Area {
  const trimmed = text.trim().replace(/^'?[^!]*'?!/, '')
  const [a, b = a] = trimmed.split(':')
  if (a === undefined || b === undefined || trimmed.split(':').length > 2) throw badAddress(text, 'range')
  if (/^[A-Za-z]{1,3}$/.test(a) && /^[A-Za-z]{1,3}$/.test(b)) {
    const l = columnNumber(a)
    const r = columnNumber(b)
    return normalise({ top: 1, left: l, bottom: limit ? Math.max(limit.bottom, 1) : MAX_ROWS, right: r })
  }
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) {
    return normalise({
      top: Number(a),
      left: 1,
      bottom: Number(b),
      right: limit ? Math.max(limit.right, 1) : MAX_COLUMNS,
    })
  }
  try {
    const start = parseCell(a)
    const end = parseCell(b)
    return normalise({ top: start.row, left: start.col, bottom: end.row, right: end.col })
  } catch {
    throw badAddress(text, 'range')
  }
}

function normalise(area: Area): Area {
  return {
    top: Math.min(area.top, area.bottom),
    bottom: Math.max(area.top, area.bottom),
    left: Math.min(area.left, area.right),
    right: Math.max(area.left, area.right),
  }
}

export function areaSize(area: Area): { rows: number; columns: number } {
  return { rows: area.bottom - area.top + 1, columns: area.right - area.left + 1 }
}

export function contains(area: Area, row: number, col: number): boolean {
  return row >= area.top && row <= area.bottom && col >= area.left && col <= area.right
}

/** Quotes a sheet name for use in a formula when it needs it. */
export function sheetPrefix(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? `${name}!` : `'${name.replace(/'/g, "''")}'!`
}
