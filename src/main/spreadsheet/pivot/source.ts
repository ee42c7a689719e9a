import type { Worksheet } from 'exceljs'
import { type Area, areaName, columnLetters, parseArea, sheetPrefix } from '../cells/address'
import { snapshot } from '../cells/cellValue'
import { usedArea } from '../cells/usedRange'
import { invalidInput } from '../errors'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import type { PivotSource, PivotValue } from './model'

export const BLANK: PivotValue = { k: 'm' }

/** `Data!A1:D50`, `'My sheet'!A:D`, a table name, or a bare range on `defaultSheet`. */
export function resolveSource(
  open: OpenWorkbook,
  source: string,
  defaultSheet: string | undefined,
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
    return clip(open.sheet(defaultSheet), text, source)
  }
  const sheet = text
    .slice(0, bang)
    .replace(/^'(.*)'$/, '$1')
    .replace(/''/g, "'")
  return clip(open.sheet(sheet), text.slice(bang + 1), source)
}

function clip(ws: Worksheet, range: string, source: string): { ws: Worksheet; area: Area } {
  let area: Area
  try {
    area = parseArea(range.replace(/\$/g, ''))
  } catch {
    throw invalidInput(`source "${source}" is not a range, e.g. Data!A1:D50`)
  }
  const used = usedArea(ws)
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

/** Reads the source: its header row names the fields, every row below is a record. */
export function readSource(open: OpenWorkbook, ws: Worksheet, area: Area): PivotSource {
  open.calc()
  const date1904 = open.date1904
  const where = `${sheetPrefix(ws.name)}${areaName(area)}`
  if (area.bottom <= area.top) throw invalidInput(`source ${where} has no data rows below its header row`)
  const fields: string[] = []
  const seen = new Set<string>()
  for (let c = area.left; c <= area.right; c++) {
    const s = snapshot(ws.findCell(area.top, c), date1904)
    const name = s.value === null ? '' : String(s.value).trim()
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
  const columns: PivotValue[][] = fields.map(() => new Array<PivotValue>(records))
  const dateFormats: (string | undefined)[] = fields.map(() => undefined)
  let filled = 0
  for (let r = area.top + 1; r <= area.bottom; r++) {
    const row = ws.findRow(r)
    const i = r - area.top - 1
    for (let c = area.left; c <= area.right; c++) {
      const f = c - area.left
      const s = snapshot(row?.findCell(c), date1904)
      let value: PivotValue
      switch (s.kind) {
        case 'number':
          value = { k: 'n', v: s.value as number }
          break
        case 'text':
          value = (s.value as string) === '' ? BLANK : { k: 's', v: s.value as string }
          break
        case 'boolean':
          value = { k: 'b', v: s.value as boolean }
          break
        case 'date':
          value = { k: 'd', v: s.value as number }
          dateFormats[f] ??= s.numFmt
          break
        case 'error':
          value = { k: 'e', v: String(s.value) }
          break
        default:
          value = BLANK
      }
      if (value.k !== 'm') filled++
      columns[f]![i] = value
    }
  }
  if (filled === 0) throw invalidInput(`source ${where} has no values below its header row`)
  return { sheet: ws.name, area, fields, columns, records, dateFormats }
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
