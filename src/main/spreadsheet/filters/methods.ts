import type { Worksheet } from 'exceljs'
import { z } from 'zod'
import { method } from '../../tools'
import { type Area, areaName, parseArea } from '../cells/address'
import { refuseLargeArea } from '../cells/areaLimits'
import { snapshot } from '../cells/cellValue'
import { invalidInput } from '../errors'
import { A1Range, AgentPath, SheetName, type WorkbooksHandle } from '../methods/schemas'
import { openSheet } from '../methods/sheetTarget'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { SETTINGS_RECEIPT_DOC, SettingsReceipt } from '../workbook/receipt'
import { type ColumnFilter, FilterCriterion, resolveCriteria } from './criteria'

/** The filter's range: the range given, its rows cut at the sheet's last row. */
function filterArea(ws: Worksheet, range: string): Area {
  const asked = parseArea(range)
  return { ...asked, bottom: Math.min(asked.bottom, Math.max(ws.rowCount, asked.top)) }
}

function currentFilter(ws: Worksheet): Area | undefined {
  const ref = ws.autoFilter
  const text = typeof ref === 'string' ? ref : undefined
  if (!text) return undefined
  try {
    return parseArea(text)
  } catch {
    return undefined
  }
}

/** Shows the data rows of the sheet's current filter again; returns how many were hidden. */
function showFilteredRows(ws: Worksheet): number {
  const area = currentFilter(ws)
  if (!area) return 0
  let shown = 0
  for (let r = area.top + 1; r <= Math.min(area.bottom, ws.rowCount); r++) {
    const row = ws.findRow(r)
    if (row?.hidden) {
      row.hidden = false
      shown++
    }
  }
  return shown
}

/** The settings receipt of a filter, read back from the sheet: its range, criteria and hidden rows. */
function filterReceipt(open: OpenWorkbook, ws: Worksheet, filters: ColumnFilter[]): SettingsReceipt {
  const area = currentFilter(ws)
  if (!area) throw new Error(`the filter on ${ws.name} was not stored`)
  const hidden: number[] = []
  for (let r = area.top + 1; r <= area.bottom; r++) if (ws.findRow(r)?.hidden) hidden.push(r)
  const rows = area.bottom - area.top
  const listed = hidden.length > 20 ? `${hidden.slice(0, 20).join(', ')}…` : hidden.join(', ')
  const stored = open.filters.get(ws.id) ?? ''
  return {
    sheet: ws.name,
    range: areaName(area),
    applied: [
      `autofilter on ${areaName(area)} (header row ${area.top})`,
      ...filters.map(
        (f) =>
          `${f.header}: ${f.label}${stored.includes(`colId="${f.col - area.left}"`) ? '' : ' (not stored)'}`,
      ),
      `${rows - hidden.length} of ${rows} data rows shown${hidden.length ? `; hidden: ${listed}` : ''}`,
    ],
  }
}

export function filterMethods(workbooks: WorkbooksHandle) {
  return {
    setFilter: method({
      description: `Turns on the autofilter over range (its first row holds the headers) with criteria kept in the file, and hides the data rows that do not match every criterion, as a spreadsheet does. Each criterion names a column (letter or header) and one of: values (keep these display texts; "" keeps blanks), operator with value (equal, not_equal, greater_than, greater_or_equal, less_than, less_or_equal compare numbers; contains, not_contains, begins_with, ends_with compare text, any case), or top {count, percent?, bottom?}. No criteria: filter buttons only. A sheet has one autofilter: this replaces the previous one. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        range: A1Range.describe('The header row and the data below it, e.g. A1:F200'),
        criteria: z.array(FilterCriterion).max(50).default([]),
      }),
      output: SettingsReceipt,
      risk: 'write',
      examples: [
        {
          path: '/sales.xlsx',
          sheet: 'Data',
          range: 'A1:D200',
          criteria: [
            { column: 'Region', values: ['North', 'South'] },
            { column: 'D', operator: 'greater_than', value: 1000 },
          ],
        },
      ],
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const area = filterArea(ws, args.range)
        refuseLargeArea(ws, area, 'set_filter')
        // Everything is checked before the sheet changes.
        const filters = resolveCriteria(ws, area, args.criteria, open.date1904)
        showFilteredRows(ws)
        for (let r = area.top + 1; r <= area.bottom; r++) {
          const shown = filters.every((f) => f.matches(snapshot(ws.findCell(r, f.col), open.date1904)))
          if (!shown) ws.getRow(r).hidden = true
        }
        const ref = areaName(area)
        ws.autoFilter = ref
        const columns = [...filters].sort((a, b) => a.col - b.col).map((f) => f.xml)
        open.filters.set(
          ws.id,
          `<autoFilter ref="${ref}"${columns.length ? `>${columns.join('')}</autoFilter>` : '/>'}`,
        )
        open.changed(ws)
        return filterReceipt(open, ws, filters)
      },
    }),
    clearFilter: method({
      description: `Removes the sheet's autofilter and its criteria and shows the rows it hid. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({ path: AgentPath, sheet: SheetName }),
      output: SettingsReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const area = currentFilter(ws)
        if (!area) throw invalidInput(`sheet ${ws.name} has no autofilter`)
        const shown = showFilteredRows(ws)
        ws.autoFilter = undefined as unknown as string
        open.filters.delete(ws.id)
        open.changed(ws)
        if (currentFilter(ws)) throw new Error(`the filter on ${ws.name} was not removed`)
        return {
          sheet: ws.name,
          range: areaName(area),
          applied: [`autofilter removed from ${areaName(area)}`, `${shown} hidden row(s) shown`],
        }
      },
    }),
  }
}
