import type { Worksheet } from 'exceljs'
import { type Area, areaName } from '../cells/address'
import { areaLabel, cellCount, countText } from '../cells/areaLimits'
import type { OpenWorkbook } from './openWorkbook'
import { PAGE_COLUMNS, planRangePage } from './rangePage'
import { type AreaReceipt, areaReceipt, type CellReader, RECEIPT_CELLS } from './receipt'

export interface WriteOutcome {
  /** The area the call was asked to change, as asked (A:C stays whole columns). */
  area: Area
  /** Where cells changed; undefined when none did. The receipt lists the first cells of it. */
  focus?: Area
  /** Cells changed. */
  changed: number
  /** How the change was applied beyond cells (column or row styles, a narrowed area). */
  notes?: string[]
}

/**
 * The receipt of a write: the full area receipt up to RECEIPT_CELLS cells; for a bigger area a summary
 * (area, changed, note) with the first cells of where the change landed, paged like get_range.
 */
export function writeReceipt(
  open: OpenWorkbook,
  ws: Worksheet,
  outcome: WriteOutcome,
  read?: CellReader,
): AreaReceipt {
  const { area, focus } = outcome
  if (cellCount(area) <= RECEIPT_CELLS) return areaReceipt(open, ws, area, read)
  const summary: Pick<AreaReceipt, 'area' | 'changed' | 'note'> = {
    area: areaLabel(area),
    changed: outcome.changed,
  }
  if (outcome.notes?.length) summary.note = `${outcome.notes.join('; ')}.`
  if (!focus) return { sheet: ws.name, range: areaLabel(area), rows: 0, columns: 0, values: [], ...summary }
  const width = Math.min(focus.right - focus.left + 1, PAGE_COLUMNS)
  const plan = planRangePage(focus, focus.right, 1, Math.max(1, Math.floor(RECEIPT_CELLS / width)))
  const shown = plan.page
  const receipt = { ...areaReceipt(open, ws, shown, read), ...summary }
  const rest: string[] = []
  if (shown.bottom < focus.bottom)
    rest.push(areaName({ ...focus, top: shown.bottom + 1, right: shown.right }))
  if (plan.nextRange) rest.push(plan.nextRange)
  if (rest.length === 0) return receipt
  receipt.truncated = `The receipt lists ${areaName(shown)}, ${countText(cellCount(shown))} of the ${countText(cellCount(focus))} cells of ${areaName(focus)} where the change landed; read the rest with get_range ${rest.join(' and ')}.`
  return receipt
}
