import type { Worksheet } from 'exceljs'
import type { ToolContext } from '../../tools'
import type { Area } from '../cells/address'
import { cellCount, requestArea } from '../cells/areaLimits'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import type { AreaReceipt } from '../workbook/receipt'
import { writeReceipt } from '../workbook/writeReceipt'
import type { WorkbooksHandle } from './schemas'

/** The session's workbook at `path` (opened on first use) and its sheet named `sheet`. */
export async function openSheet(
  workbooks: WorkbooksHandle,
  ctx: ToolContext,
  target: { path: string; sheet: string },
): Promise<{ open: OpenWorkbook; ws: Worksheet }> {
  const open = await workbooks.get(ctx).get(target.path)
  return { open, ws: open.sheet(target.sheet) }
}

/**
 * A range on the sheet; whole columns (A:C, A1:C1048576) end at the sheet's last row and whole rows
 * (2:5, A2:XFD5) at its last column.
 */
export function areaOnSheet(ws: Worksheet, range: string): Area {
  const { area, wholeColumns, wholeRows } = requestArea(range)
  if (wholeColumns) area.bottom = Math.max(ws.rowCount, 1)
  if (wholeRows) area.right = Math.max(ws.columnCount, 1)
  return area
}

/** The receipt of a write that changed every cell of `area`. */
export function filledReceipt(open: OpenWorkbook, ws: Worksheet, area: Area): AreaReceipt {
  return writeReceipt(open, ws, { area, focus: area, changed: cellCount(area) })
}
