import type { Worksheet } from 'exceljs'
import { z } from 'zod'
import { type Area, areaName, areaSize, columnLetters } from '../cells/address'
import { type CellSnapshot, isGeneralFormat, snapshot } from '../cells/cellValue'
import { displayText } from '../cells/displayValue'
import type { OpenWorkbook } from './openWorkbook'

export const AreaReceipt = z.object({
  sheet: z.string(),
  range: z.string().describe('The area in A1 notation'),
  rows: z.number().int(),
  columns: z.number().int(),
  values: z
    .array(z.array(z.string()))
    .describe('Display values, number formats applied, formula results included'),
  formulas: z.record(z.string(), z.string()).optional().describe('Cell -> formula, only cells that hold one'),
  types: z
    .record(z.string(), z.enum(['text', 'boolean', 'date', 'error', 'empty']))
    .optional()
    .describe('Cell -> type for every cell that is not a number'),
  formats: z
    .record(z.string(), z.string())
    .optional()
    .describe('Cell -> number format, only non-General ones'),
  hyperlinks: z
    .record(z.string(), z.string())
    .optional()
    .describe('Cell -> link target: a URL, or Sheet!Cell for a place in this workbook'),
  uncalculated: z
    .record(z.string(), z.string())
    .optional()
    .describe(
      'Cell -> why the engine could not compute its formula (the value shown is the last cached one)',
    ),
  area: z
    .string()
    .optional()
    .describe(
      'The whole area the call changed, when the receipt lists only part of it (A:C = whole columns)',
    ),
  changed: z.number().int().optional().describe('How many cells of area the call changed'),
  note: z.string().optional().describe('How the change was applied, e.g. whole columns carry the format'),
  truncated: z
    .string()
    .optional()
    .describe('What the receipt leaves out and the get_range call that reads it'),
})
export type AreaReceipt = z.infer<typeof AreaReceipt>

export const SettingsReceipt = z.object({
  sheet: z.string(),
  range: z.string(),
  applied: z.array(z.string()).describe('What was changed, one entry per setting'),
})
export type SettingsReceipt = z.infer<typeof SettingsReceipt>

/** Cells a write receipt lists in full; a call on a bigger area gets a summary with its first cells. */
export const RECEIPT_CELLS = 500

/** What the area receipt holds: stated once, in the toolset's description. */
export const AREA_RECEIPT_EXPLAINED = `The area receipt {sheet, range, rows, columns, values, formulas?, types?, formats?, hyperlinks?, uncalculated?}: values are the display texts (number formats applied, formula results computed); formulas, types (cells not listed are numbers), formats, hyperlinks and uncalculated are sparse maps keyed by cell, omitted when empty. A call on more than ${RECEIPT_CELLS} cells gets a summary instead: area, changed, note? and the first ${RECEIPT_CELLS} changed cells, with truncated naming the rest to read with get_range.`

/** Ends each writing method's description; the receipt itself is explained once per toolset. */
export const AREA_RECEIPT_DOC = 'Returns the area receipt.'

export const SETTINGS_RECEIPT_DOC = 'Returns the settings receipt.'

export const SETTINGS_RECEIPT_EXPLAINED =
  'The settings receipt {sheet, range, applied: [...]} lists each setting applied.'

function setIfAny<T>(target: Record<string, unknown>, key: string, map: Record<string, T>): void {
  if (Object.keys(map).length > 0) target[key] = map
}

/** A cell's snapshot by row and column (a sheet whose rows are not all loaded reads the rest itself). */
export type CellReader = (row: number, col: number) => CellSnapshot

/** The receipt for an area after formulas are recomputed; `read` reads cells exceljs does not hold. */
export function areaReceipt(open: OpenWorkbook, ws: Worksheet, area: Area, read?: CellReader): AreaReceipt {
  const calc = open.calc()
  const date1904 = open.date1904
  const values: string[][] = []
  const formulas: Record<string, string> = {}
  const types: Record<string, 'text' | 'boolean' | 'date' | 'error' | 'empty'> = {}
  const formats: Record<string, string> = {}
  const hyperlinks: Record<string, string> = {}
  const letters: string[] = []
  for (let c = area.left; c <= area.right; c++) letters.push(columnLetters(c))
  for (let r = area.top; r <= area.bottom; r++) {
    const row: string[] = []
    const sheetRow = read ? undefined : ws.findRow(r)
    for (let c = area.left; c <= area.right; c++) {
      const found = sheetRow?.findCell(c)
      const s = read ? read(r, c) : snapshot(found, date1904)
      row.push(displayText(s))
      const link = found?.hyperlink
      if (link) hyperlinks[`${letters[c - area.left]}${r}`] = link
      const general = isGeneralFormat(s.numFmt)
      // Most cells are plain numbers: their name is only built when a sparse map lists them.
      if (s.formula === undefined && s.kind === 'number' && general) continue
      const name = `${letters[c - area.left]}${r}`
      if (s.formula !== undefined) formulas[name] = `=${s.formula}`
      if (s.kind !== 'number') types[name] = s.kind
      if (!general) formats[name] = s.numFmt!
    }
    values.push(row)
  }
  const uncalculated: Record<string, string> = {}
  for (const u of calc.uncalculated) {
    if (u.sheet !== ws.name) continue
    const m = /^([A-Z]+)(\d+)$/.exec(u.cell)
    if (!m) continue
    const row = Number(m[2])
    if (row >= area.top && row <= area.bottom && formulas[u.cell] !== undefined)
      uncalculated[u.cell] = u.reason
  }
  const { rows, columns } = areaSize(area)
  const receipt: AreaReceipt = { sheet: ws.name, range: areaName(area), rows, columns, values }
  const extra = receipt as unknown as Record<string, unknown>
  setIfAny(extra, 'formulas', formulas)
  setIfAny(extra, 'types', types)
  setIfAny(extra, 'formats', formats)
  setIfAny(extra, 'hyperlinks', hyperlinks)
  setIfAny(extra, 'uncalculated', uncalculated)
  return receipt
}

export function settingsReceipt(ws: Worksheet, range: string, applied: string[]): SettingsReceipt {
  return { sheet: ws.name, range, applied }
}
