import type { Cell, CellValue as ExcelCellValue } from 'exceljs'
import { isDateFormat } from 'numfmt'

/** What a cell holds, reduced to what receipts, formulas and the save pass need. */
export type CellKind = 'empty' | 'number' | 'text' | 'boolean' | 'date' | 'error'

export interface CellSnapshot {
  kind: CellKind
  /** Numbers (dates as serials), text, booleans, error codes (`#N/A`); null when empty. */
  value: number | string | boolean | null
  /** Without the leading `=`. */
  formula?: string
  numFmt?: string
  /** The workbook counts dates from 1904 (display must shift them). */
  date1904?: boolean
}

const MS_PER_DAY = 86_400_000
const EPOCH_OFFSET_1900 = 25_569
const EPOCH_OFFSET_1904 = 24_107
/** How many days a 1904 workbook's date serials are behind the 1900 ones numfmt counts in (1,462). */
export const DAYS_1900_TO_1904 = EPOCH_OFFSET_1900 - EPOCH_OFFSET_1904

export function dateToSerial(date: Date, date1904: boolean): number {
  return date.getTime() / MS_PER_DAY + (date1904 ? EPOCH_OFFSET_1904 : EPOCH_OFFSET_1900)
}

export function isGeneralFormat(numFmt: string | undefined): boolean {
  return !numFmt || numFmt === 'General'
}

interface RichTextValue {
  richText: { text: string }[]
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !(value instanceof Date)
}

/** Normalises a plain (non-formula) exceljs value. */
export function plainSnapshot(value: unknown, date1904: boolean): Pick<CellSnapshot, 'kind' | 'value'> {
  if (value === null || value === undefined || value === '') return { kind: 'empty', value: null }
  if (typeof value === 'number') return { kind: 'number', value }
  if (typeof value === 'string') return { kind: 'text', value }
  if (typeof value === 'boolean') return { kind: 'boolean', value }
  if (value instanceof Date) return { kind: 'date', value: dateToSerial(value, date1904) }
  if (isObject(value)) {
    if ('error' in value) return { kind: 'error', value: String(value.error) }
    if ('richText' in value)
      return { kind: 'text', value: (value as unknown as RichTextValue).richText.map((r) => r.text).join('') }
    if ('text' in value) return plainSnapshot(value.text, date1904)
  }
  return { kind: 'text', value: String(value) }
}

export function isFormulaCell(cell: Cell): boolean {
  const value = cell.value as ExcelCellValue
  return isObject(value) && ('formula' in value || 'sharedFormula' in value)
}

/** The cell's content; `cell.formula` translates shared formulas for us. */
export function snapshot(cell: Cell | undefined, date1904: boolean): CellSnapshot {
  if (!cell) return { kind: 'empty', value: null }
  const numFmt = cell.numFmt || undefined
  // Built field by field (no spreads): receipts and the save pass snapshot every cell of an area.
  let out: CellSnapshot
  if (isFormulaCell(cell)) {
    const result = plainSnapshot(cell.result, date1904)
    const shown = result.kind === 'empty' ? { kind: 'number' as const, value: 0 } : result
    out = withDateKind(shown, numFmt)
    out.formula = cell.formula
  } else if (cell.type === 1 /* Merge */) {
    return { kind: 'empty', value: null, numFmt }
  } else {
    out = withDateKind(plainSnapshot(cell.value, date1904), numFmt)
  }
  out.numFmt = numFmt
  if (date1904) out.date1904 = date1904
  return out
}

/** The snapshot of a cell without a formula holding `value` (as exceljs holds it) under `numFmt`. */
export function valueSnapshot(value: unknown, numFmt: string | undefined, date1904: boolean): CellSnapshot {
  const format = numFmt || undefined
  const out = withDateKind(plainSnapshot(value, date1904), format)
  out.numFmt = format
  if (date1904) out.date1904 = date1904
  return out
}

/** A date-formatted number is a date; returns a fresh object the caller may extend. */
function withDateKind(s: Pick<CellSnapshot, 'kind' | 'value'>, numFmt: string | undefined): CellSnapshot {
  if (s.kind === 'number' && numFmt && looksLikeDateFormat(numFmt)) return { kind: 'date', value: s.value }
  return { kind: s.kind, value: s.value }
}

export function looksLikeDateFormat(numFmt: string): boolean {
  try {
    return isDateFormat(numFmt)
  } catch {
    return false
  }
}
