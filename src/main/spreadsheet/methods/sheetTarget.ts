import type { Worksheet } from 'exceljs'
import type { ToolContext } from '../../tools'
import { type Area, parseArea } from '../address'
import type { OpenWorkbook } from '../openWorkbook'
import type { WorkbooksHandle } from '../toolsetApi'

/** The session's workbook at `path` (opened on first use) and its sheet named `sheet`. */
export async function openSheet(
  workbooks: WorkbooksHandle,
  ctx: ToolContext,
  target: { path: string; sheet: string },
): Promise<{ open: OpenWorkbook; ws: Worksheet }> {
  const open = await workbooks.get(ctx).get(target.path)
  return { open, ws: open.sheet(target.sheet) }
}

/** A range on the sheet; whole columns (A:C) and whole rows (2:5) end at the sheet's extent. */
export function areaOnSheet(ws: Worksheet, range: string): Area {
  return parseArea(range, { top: 1, left: 1, bottom: ws.rowCount, right: ws.columnCount })
}
