import type { Worksheet } from 'exceljs'
import { type Area, areaName, cellName, columnLetters, sheetPrefix } from '../cells/address'
import { type CellKind, snapshot } from '../cells/cellValue'
import { displayText } from '../cells/displayValue'
import { type ChartInfo, chartsInSheet } from '../charts/chartInfo'
import { invalidInput } from '../errors'
import { countFormulas } from '../formulas/countFormulas'
import { describePivot, type PivotSummary, pivotsInSheet } from '../pivot/read'
import type { OpenWorkbook } from '../workbook/openWorkbook'

export interface ColumnInfo {
  column: string
  name: string
  type: 'number' | 'text' | 'date' | 'boolean' | 'mixed' | 'empty'
}

export interface SheetDescription {
  sheet: string
  usedRange: string | null
  rows: number
  columns: number
  headerRow: number | null
  columnInfo: ColumnInfo[]
  sampleRows: string[][]
  tables: { name: string; range: string }[]
  charts: ChartInfo[]
  pivots?: PivotSummary[]
  mergedRanges: string[]
  formulaCount: number
  frozen: { rows: number; columns: number } | null
  hidden?: boolean
}

const SAMPLE_ROWS = 5
const TYPE_SCAN_ROWS = 200
const MAX_DESCRIBED_COLUMNS = 50

function rowTexts(ws: Worksheet, r: number, area: Area, date1904: boolean): string[] {
  const out: string[] = []
  const row = ws.findRow(r)
  for (let c = area.left; c <= area.right; c++) out.push(displayText(snapshot(row?.findCell(c), date1904)))
  return out
}

/** A header row is the first used row whose non-empty cells are all text. */
function findHeaderRow(ws: Worksheet, area: Area, date1904: boolean): number | null {
  for (let r = area.top; r <= Math.min(area.bottom, area.top + 5); r++) {
    const kinds: CellKind[] = []
    for (let c = area.left; c <= area.right; c++) kinds.push(snapshot(ws.findCell(r, c), date1904).kind)
    const filled = kinds.filter((k) => k !== 'empty')
    if (filled.length === 0) continue
    return filled.every((k) => k === 'text') && r < area.bottom ? r : null
  }
  return null
}

function columnType(kinds: Set<CellKind>): ColumnInfo['type'] {
  kinds.delete('empty')
  kinds.delete('error')
  if (kinds.size === 0) return 'empty'
  if (kinds.size > 1) return 'mixed'
  return [...kinds][0] as ColumnInfo['type']
}

/** `area`: the sheet's used area (an outline knows it from a scan; its rows are not all loaded). */
export function describeWorksheet(
  open: OpenWorkbook,
  ws: Worksheet,
  area: Area | undefined,
): SheetDescription {
  open.calc()
  const date1904 = open.date1904
  const tables = Object.values(
    (
      ws as unknown as {
        tables: Record<
          string,
          { name: string; table?: { tableRef?: string; ref?: string }; model?: { tableRef?: string } }
        >
      }
    ).tables ?? {},
  ).map((t) => {
    const tbl = t as unknown as { name: string; table?: { tableRef?: string; ref?: string } }
    return { name: tbl.name ?? tbl.table?.ref ?? '', range: tbl.table?.tableRef ?? tbl.table?.ref ?? '' }
  })
  const part = open.originalSheetParts.get(ws.id)
  const charts = [
    ...(part ? chartsInSheet(open.original, part) : []),
    ...open.charts
      .filter((c) => c.sheet === ws.name)
      .map((c) => ({ type: c.type, title: c.title, anchor: cellName(c.anchor.row + 1, c.anchor.col + 1) })),
  ]
  const pivots = [
    ...(part ? pivotsInSheet(open.original, part) : []).map(describePivot),
    ...open.pivots
      .filter((p) => p.sheet === ws.name)
      .map((p) =>
        describePivot({
          name: p.result.spec.name,
          location: p.location,
          source: `${sheetPrefix(p.source.sheet)}${areaName(p.source.area)}`,
          rows: p.request.rows,
          columns: p.request.columns,
          values: p.result.spec.values,
        }),
      ),
  ]
  const merges = Object.keys((ws as unknown as { _merges: Record<string, unknown> })._merges ?? {}).map(
    (master) => {
      const m = (ws as unknown as { _merges: Record<string, { range: string }> })._merges[master]
      return m?.range ?? master
    },
  )
  const view = ws.views?.[0] as { state?: string; xSplit?: number; ySplit?: number } | undefined
  const frozen = view?.state === 'frozen' ? { rows: view.ySplit ?? 0, columns: view.xSplit ?? 0 } : null
  const base = {
    sheet: ws.name,
    tables,
    charts,
    ...(pivots.length > 0 ? { pivots } : {}),
    mergedRanges: merges,
    formulaCount: countFormulas(ws),
    frozen,
    ...(ws.state && ws.state !== 'visible' ? { hidden: true } : {}),
  }
  if (!area)
    return { ...base, usedRange: null, rows: 0, columns: 0, headerRow: null, columnInfo: [], sampleRows: [] }
  const headerRow = findHeaderRow(ws, area, date1904)
  const bodyTop = headerRow ? headerRow + 1 : area.top
  const right = Math.min(area.right, area.left + MAX_DESCRIBED_COLUMNS - 1)
  const columnInfo: ColumnInfo[] = []
  for (let c = area.left; c <= right; c++) {
    const kinds = new Set<CellKind>()
    for (let r = bodyTop; r <= Math.min(area.bottom, bodyTop + TYPE_SCAN_ROWS - 1); r++)
      kinds.add(snapshot(ws.findCell(r, c), date1904).kind)
    const name = headerRow ? displayText(snapshot(ws.findCell(headerRow, c), date1904)) : ''
    columnInfo.push({ column: columnLetters(c), name, type: columnType(kinds) })
  }
  const sampleArea = { ...area, right }
  const sampleRows: string[][] = []
  for (let r = bodyTop; r <= Math.min(area.bottom, bodyTop + SAMPLE_ROWS - 1); r++)
    sampleRows.push(rowTexts(ws, r, sampleArea, date1904))
  return {
    ...base,
    usedRange: areaName(area),
    rows: area.bottom - area.top + 1,
    columns: area.right - area.left + 1,
    headerRow,
    columnInfo,
    sampleRows,
  }
}

export interface FindMatch {
  sheet: string
  cell: string
  value: string
  formula?: string
}

export interface FindOptions {
  query: string
  sheet?: Worksheet
  match: 'contains' | 'exact' | 'regex'
  in: 'values' | 'formulas'
  limit: number
}

export function findCells(
  open: OpenWorkbook,
  options: FindOptions,
): { matches: FindMatch[]; truncated: boolean } {
  open.calc()
  const test = matcher(options)
  const sheets = options.sheet ? [options.sheet] : open.workbook.worksheets
  const matches: FindMatch[] = []
  let truncated = false
  for (const ws of sheets) {
    ws.eachRow((row, r) =>
      row.eachCell((cell, c) => {
        if (truncated) return
        const s = snapshot(cell, open.date1904)
        const shown = displayText(s)
        const raw = s.kind === 'number' ? String(s.value) : shown
        const target = options.in === 'formulas' ? (s.formula !== undefined ? `=${s.formula}` : '') : shown
        const hit = options.in === 'formulas' ? test(target) : test(shown) || (raw !== shown && test(raw))
        if (!hit) return
        if (matches.length >= options.limit) {
          truncated = true
          return
        }
        matches.push({
          sheet: ws.name,
          cell: cellName(r, c),
          value: shown,
          ...(s.formula !== undefined ? { formula: `=${s.formula}` } : {}),
        })
      }),
    )
  }
  return { matches, truncated }
}

function matcher(options: FindOptions): (text: string) => boolean {
  if (options.match === 'regex') {
    let re: RegExp
    try {
      re = new RegExp(options.query, 'i')
    } catch {
      throw invalidInput(`"${options.query}" is not a valid regular expression`)
    }
    return (text) => text !== '' && re.test(text)
  }
  const query = options.query.toLowerCase()
  if (options.match === 'exact') return (text) => text.toLowerCase() === query
  return (text) => text !== '' && text.toLowerCase().includes(query)
}
