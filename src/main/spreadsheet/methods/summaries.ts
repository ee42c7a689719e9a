import type { z } from 'zod'
import { type Area, areaName } from '../cells/address'
import { sheetArea } from '../cells/usedRange'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import type { SaveReport } from '../workbook/saveWorkbook'
import type { SaveReceipt, WorkbookSummary } from './schemas'

/** `areas`: used areas already known (an outline's scanned sheets). */
export function workbookSummary(
  open: OpenWorkbook,
  areas?: ReadonlyMap<number, Area | undefined>,
): z.input<typeof WorkbookSummary> {
  const calc = open.calc()
  return {
    path: open.path,
    sheets: open.workbook.worksheets.map((ws) => {
      const area = sheetArea(ws, areas)
      return {
        name: ws.name,
        usedRange: area ? areaName(area) : null,
        rows: area ? area.bottom - area.top + 1 : 0,
        columns: area ? area.right - area.left + 1 : 0,
      }
    }),
    formulas: calc.calculated + calc.uncalculated.length,
    ...(calc.uncalculated.length > 0 ? { uncalculated: calc.uncalculated } : {}),
  }
}

export function saveReceipt(report: SaveReport): z.input<typeof SaveReceipt> {
  return {
    path: report.path,
    bytes: report.bytes,
    ...(report.backup ? { backup: report.backup } : {}),
    ...(report.version ? { version: report.version } : {}),
    verified: report.verified,
    carried: report.carried,
    chartsAdded: report.charts,
    widths: report.pass.widths,
    titles: report.pass.titles,
    unquotedFormats: report.pass.unquoted,
    ...(report.uncalculated.length > 0 ? { uncalculated: report.uncalculated } : {}),
  }
}
