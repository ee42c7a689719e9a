import { columnLetters, columnNumber, MAX_COLUMNS, MAX_ROWS, sheetPrefix } from '../cells/address'

/** One end of a reference; `col`/`row` are absent for whole-row / whole-column references. */
export interface RefPoint {
  col?: number
  row?: number
  colAbs: boolean
  rowAbs: boolean
}

export interface FormulaRef {
  /** Sheet name as written (unquoted), when the reference names one. */
  sheet?: string
  start: RefPoint
  end?: RefPoint
}

const SHEET = `(?:'((?:[^']|'')+)'|([A-Za-z_\\u00C0-\\uFFFF][\\w.\\u00C0-\\uFFFF]*))!`
const CELL = '\\$?[A-Za-z]{1,3}\\$?\\d+'
const REF = new RegExp(
  `(?<![\\w.$])(?:${SHEET})?(${CELL}(?::${CELL})?|\\$?[A-Za-z]{1,3}:\\$?[A-Za-z]{1,3}|\\$?\\d+:\\$?\\d+)(?![\\w(!])`,
  'g',
)

function parsePoint(text: string): RefPoint {
  const m = /^(\$?)([A-Za-z]{0,3})(\$?)(\d*)$/.exec(text)!
  return {
    col: m[2] ? columnNumber(m[2]) : undefined,
    row: m[4] ? Number(m[4]) : undefined,
    colAbs: m[1] === '$',
    rowAbs: m[3] === '$',
  }
}

export function formatPoint(p: RefPoint): string {
  const col = p.col === undefined ? '' : `${p.colAbs ? '$' : ''}${columnLetters(p.col)}`
  const row = p.row === undefined ? '' : `${p.rowAbs ? '$' : ''}${p.row}`
  return col + row
}

export function formatRef(ref: FormulaRef): string {
  const prefix = ref.sheet === undefined ? '' : sheetPrefix(ref.sheet)
  return prefix + formatPoint(ref.start) + (ref.end ? `:${formatPoint(ref.end)}` : '')
}

/**
 * Rewrites every cell, range, column and row reference outside string literals. `map` returns the
 * new reference, `null` for `#REF!`, or `undefined` to keep it.
 */
export function rewriteRefs(
  formula: string,
  map: (ref: FormulaRef) => FormulaRef | null | undefined,
): string {
  const pieces = formula.split(/("(?:[^"]|"")*")/)
  return pieces
    .map((piece, i) => {
      if (i % 2 === 1) return piece
      return piece.replace(
        REF,
        (whole, quoted: string | undefined, bare: string | undefined, body: string) => {
          if (/^[A-Za-z]{1,3}\d+$/.test(body) && columnNumber(body.replace(/\d+$/, '')) > 16_384) return whole
          const [a, b] = body.split(':')
          const ref: FormulaRef = {
            sheet: quoted !== undefined ? quoted.replace(/''/g, "'") : bare,
            start: parsePoint(a!),
            end: b === undefined ? undefined : parsePoint(b),
          }
          const next = map(ref)
          if (next === undefined) return whole
          if (next === null) return '#REF!'
          return formatRef(next)
        },
      )
    })
    .join('')
}

function offSheet(p: RefPoint): boolean {
  const row = p.row ?? 1
  const col = p.col ?? 1
  return row < 1 || col < 1 || row > MAX_ROWS || col > MAX_COLUMNS
}

/** Moves relative parts of references by an offset, as copying a formula does; one pushed off the sheet becomes #REF!. */
export function slideFormula(formula: string, rows: number, cols: number): string {
  const move = (p: RefPoint): RefPoint => ({
    ...p,
    row: p.row === undefined || p.rowAbs ? p.row : p.row + rows,
    col: p.col === undefined || p.colAbs ? p.col : p.col + cols,
  })
  return rewriteRefs(formula, (ref) => {
    const start = move(ref.start)
    const end = ref.end ? move(ref.end) : undefined
    if (offSheet(start) || (end && offSheet(end))) return null
    return { ...ref, start, end }
  })
}

export interface Splice {
  /** The sheet whose rows/columns move. */
  sheet: string
  axis: 'row' | 'col'
  at: number
  /** Positive inserts, negative deletes. */
  count: number
}

function sameSheet(a: string | undefined, b: string): boolean {
  return a !== undefined && a.toLowerCase() === b.toLowerCase()
}

/** Adjusts references after rows/columns were inserted or deleted, as a spreadsheet does. */
export function spliceFormula(formula: string, formulaSheet: string, splice: Splice): string {
  const key = splice.axis
  return rewriteRefs(formula, (ref) => {
    if (!sameSheet(ref.sheet ?? formulaSheet, splice.sheet)) return undefined
    const start = ref.start[key]
    const end = (ref.end ?? ref.start)[key]
    if (start === undefined || end === undefined) return undefined
    let s = start
    let e = end
    if (splice.count > 0) {
      if (s >= splice.at) s += splice.count
      if (e >= splice.at) e += splice.count
    } else {
      const first = splice.at
      const last = splice.at - splice.count - 1
      const n = -splice.count
      if (s >= first && e <= last) return null
      // Ends inside the deleted block move to its edge; ends after it move up by the deleted count.
      if (s > last) s -= n
      else if (s >= first) s = first
      if (e > last) e -= n
      else if (e >= first) e = first - 1
    }
    if (s === start && e === end) return undefined
    return {
      ...ref,
      start: { ...ref.start, [key]: s },
      end: ref.end ? { ...ref.end, [key]: e } : undefined,
    }
  })
}

/** Points references to a renamed sheet at its new name. */
export function renameSheetInFormula(formula: string, from: string, to: string): string {
  return rewriteRefs(formula, (ref) => (sameSheet(ref.sheet, from) ? { ...ref, sheet: to } : undefined))
}
