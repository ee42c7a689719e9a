import type { Worksheet } from 'exceljs'
import { type Area, areaName, columnLetters, parseArea, sheetPrefix } from '../cells/address'
import { type CellSnapshot, snapshot } from '../cells/cellValue'
import { usedArea } from '../cells/usedRange'
import { invalidInput } from '../errors'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { BLANK, PivotColumn, type PivotSource, type PivotValue } from './model'

/** `Data!A1:D50`, `'My sheet'!A:D`, a table name, or a bare range on `defaultSheet`. */
export function resolveSource(
  open: OpenWorkbook,
  source: string,
  defaultSheet: string | undefined,
  usedOf: (ws: Worksheet) => Area | undefined = usedArea,
): { ws: Worksheet; area: Area } {
  const text = source.trim()
  const bang = text.lastIndexOf('!')
  if (bang < 0) {
    for (const ws of open.workbook.worksheets) {
      const tables = (
        ws as unknown as { tables?: Record<string, { table?: { tableRef?: string; ref?: string } }> }
      ).tables
      for (const [name, t] of Object.entries(tables ?? {}))
        if (name.toLowerCase() === text.toLowerCase()) {
          const ref = t.table?.tableRef ?? t.table?.ref
          if (ref) return { ws, area: parseArea(ref) }
        }
    }
    if (!defaultSheet)
      throw invalidInput(`source "${source}" is neither a table nor a range with its sheet, e.g. Data!A1:D50`)
    return clip(open.sheet(defaultSheet), text, source, usedOf)
  }
  const sheet = text
    .slice(0, bang)
    .replace(/^'(.*)'$/, '$1')
    .replace(/''/g, "'")
  return clip(open.sheet(sheet), text.slice(bang + 1), source, usedOf)
}

function clip(
  ws: Worksheet,
  range: string,
  source: string,
  usedOf: (ws: Worksheet) => Area | undefined,
): { ws: Worksheet; area: Area } {
  let area: Area
  try {
    area = parseArea(range.replace(/\$/g, ''))
  } catch {
    throw invalidInput(`source "${source}" is not a range, e.g. Data!A1:D50`)
  }
  const used = usedOf(ws)
  if (!used || area.top > used.bottom || area.left > used.right)
    throw invalidInput(`source ${sheetPrefix(ws.name)}${areaName(area)} is empty`)
  return {
    ws,
    area: {
      top: Math.max(area.top, used.top),
      left: area.left,
      bottom: Math.min(area.bottom, used.bottom),
      right: Math.min(area.right, used.right),
    },
  }
}

/** A source cell as the pivot reads it (a formula's cached result, dates as serials). */
export type SourceCell = Pick<CellSnapshot, 'kind' | 'value' | 'numFmt'>

/** The cells of the source's sheet, from exceljs's cells or from the sheet part's bytes. */
export interface SourceCells {
  cell(r: number, c: number): SourceCell | undefined
  /** Every cell of `area` that holds something, in row order. */
  each(area: Area, visit: (r: number, c: number, cell: SourceCell) => void): void
}

/** The source's cells as exceljs holds them (formulas recomputed first). */
export function workbookCells(open: OpenWorkbook, ws: Worksheet): SourceCells {
  open.calc()
  const date1904 = open.date1904
  return {
    cell: (r, c) => snapshot(ws.findCell(r, c), date1904),
    each(area, visit) {
      for (let r = area.top; r <= Math.min(area.bottom, ws.rowCount); r++) {
        const row = ws.findRow(r)
        if (!row) continue
        for (let c = area.left; c <= area.right; c++) {
          const cell = row.findCell(c)
          if (cell) visit(r, c, snapshot(cell, date1904))
        }
      }
    },
  }
}

/** Reads the source: its header row names the fields, every row below is a record. */
export function readSource(open: OpenWorkbook, ws: Worksheet, area: Area): PivotSource {
  return readSourceCells(ws.name, area, workbookCells(open, ws))
}

function pivotValue(s: SourceCell): PivotValue {
  switch (s.kind) {
    case 'number':
      return { k: 'n', v: s.value as number }
    case 'text':
      return (s.value as string) === '' ? BLANK : { k: 's', v: s.value as string }
    case 'boolean':
      return { k: 'b', v: s.value as boolean }
    case 'date':
      return { k: 'd', v: s.value as number }
    case 'error':
      return { k: 'e', v: String(s.value) }
    default:
      return BLANK
  }
}

/** `readSource` over any reader of the sheet's cells. */
export function readSourceCells(sheet: string, area: Area, cells: SourceCells): PivotSource {
  const where = `${sheetPrefix(sheet)}${areaName(area)}`
  if (area.bottom <= area.top) throw invalidInput(`source ${where} has no data rows below its header row`)
  const fields: string[] = []
  const seen = new Set<string>()
  for (let c = area.left; c <= area.right; c++) {
    const s = cells.cell(area.top, c)
    const name = s === undefined || s.value === null ? '' : String(s.value).trim()
    if (!name)
      throw invalidInput(
        `source ${where} needs a header row: ${columnLetters(c)}${area.top} is empty (every column needs a name)`,
      )
    let unique = name
    for (let n = 2; seen.has(unique.toLowerCase()); n++) unique = `${name}${n}`
    seen.add(unique.toLowerCase())
    fields.push(unique)
  }
  const records = area.bottom - area.top
  const columns = fields.map(() => new PivotColumn(records))
  const dateFormats: (string | undefined)[] = fields.map(() => undefined)
  let filled = 0
  cells.each({ ...area, top: area.top + 1 }, (r, c, s) => {
    const value = pivotValue(s)
    if (value.k === 'm') return
    const f = c - area.left
    if (value.k === 'd') dateFormats[f] ??= s.numFmt
    filled++
    columns[f]!.set(r - area.top - 1, value)
  })
  if (filled === 0) throw invalidInput(`source ${where} has no values below its header row`)
  return { sheet, area, fields, columns, records, dateFormats }
}

/** The field named `name` (any case), or a clear error listing the fields. */
export function fieldIndex(source: Pick<PivotSource, 'fields'>, name: string, role: string): number {
  const i = source.fields.findIndex((f) => f.toLowerCase() === name.trim().toLowerCase())
  if (i < 0)
    throw invalidInput(
      `${role} field "${name}" is not a column of the source; its fields are: ${source.fields.join(', ')}`,
    )
  return i
}
