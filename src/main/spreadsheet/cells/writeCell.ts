import type { Cell } from 'exceljs'
import { parseValue } from 'numfmt'
import { restyle } from './cellStyle'
import { DAYS_1900_TO_1904, isGeneralFormat } from './cellValue'

export type CellInput = string | number | boolean | null

const NUMBER_LIKE = /^[-+]?[$€£¥]?\s?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?(e[-+]?\d+)?\s?%?$/i
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$/

/** The formula (without "=") a typed value holds: `=...` is one, a lone `=` and `'=...` are text. */
export function formulaInInput(input: CellInput): string | undefined {
  return typeof input === 'string' && input.startsWith('=') && input.length > 1 ? input.slice(1) : undefined
}

/** The formula a set_cell_formula argument holds, with or without its leading "=". */
export function formulaBody(formula: string): string {
  return formula.trim().replace(/^=/, '')
}

function isLetter(code: number): boolean {
  const lower = code | 0x20
  return lower >= 0x61 && lower <= 0x7a
}

/**
 * True when `text` starts as no number-like text does: with a letter, other than an exponent's `e`
 * followed by a digit or sign (`e5` reads as a number).
 */
function startsAsWord(text: string): boolean {
  const first = text.charCodeAt(0)
  if (!isLetter(first)) return false
  if ((first | 0x20) !== 0x65) return true
  const next = text.charCodeAt(1)
  return !((next >= 0x30 && next <= 0x39) || next === 0x2b || next === 0x2d)
}

/** Text that typing turns into a number (`12%`, `$1,200`, `2024-03-01`), maybe with a format. */
function readsAsNumber(trimmed: string): boolean {
  if (startsAsWord(trimmed)) return false
  const looksNumeric = NUMBER_LIKE.test(trimmed) && /\d/.test(trimmed) && !/^[-+]?0\d/.test(trimmed)
  return looksNumeric || ISO_DATE.test(trimmed)
}

/**
 * The value `writeCell` stores for `input` when that is all it does (a number, a boolean, text that
 * stays text): no formula, no number format, nothing cleared. Undefined for every other input.
 */
export function plainValue(input: CellInput): string | number | boolean | undefined {
  if (input === null || input === '') return undefined
  if (typeof input !== 'string') return input
  // Most text starts with a letter: nothing else to check (checked here before trimming a copy).
  if (startsAsWord(input)) return input
  if (formulaInInput(input) !== undefined) return undefined
  if (input.startsWith("'")) return input.length > 1 ? input.slice(1) : undefined
  return readsAsNumber(input.trim()) ? undefined : input
}

/** The text number format (`@`): what is typed into such a cell stays text. */
export function isTextFormat(numFmt: string | undefined): boolean {
  return numFmt === '@'
}

/**
 * Writes a value the way typing it into a spreadsheet would: `=...` is a formula, `'...` forces text,
 * `12%`, `$1,200` and `2024-03-01` become numbers with a matching format; other strings stay text. In a
 * text-formatted (`@`) cell numbers and number-like text stay text, as typed (formulas stay formulas).
 */
export function writeCell(cell: Cell, input: CellInput, date1904 = false): void {
  if (input === null || input === '') {
    cell.value = null
    return
  }
  const asText = isTextFormat(cell.numFmt)
  if (typeof input !== 'string') {
    cell.value = asText && typeof input === 'number' ? String(input) : input
    return
  }
  const formula = formulaInInput(input)
  if (formula !== undefined) {
    cell.value = { formula } as Cell['value']
    return
  }
  if (input.startsWith("'")) {
    cell.value = input.slice(1)
    return
  }
  if (asText) {
    cell.value = input
    return
  }
  const trimmed = input.trim()
  if (readsAsNumber(trimmed)) {
    const parsed = parseValue(trimmed) as { v?: unknown; z?: string } | null
    if (parsed && typeof parsed.v === 'number') {
      cell.value = ISO_DATE.test(trimmed) && date1904 ? parsed.v - DAYS_1900_TO_1904 : parsed.v
      const z = parsed.z
      if (z && isGeneralFormat(cell.numFmt)) restyle(cell, (style) => ({ ...style, numFmt: z }))
      return
    }
  }
  cell.value = input
}

export function writeFormula(cell: Cell, formula: string): void {
  cell.value = { formula: formulaBody(formula) } as Cell['value']
}
