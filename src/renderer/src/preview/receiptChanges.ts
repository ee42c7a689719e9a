import type { AgentStep } from '../../../shared/ipc'
import { isAreaReceipt, isSettingsReceipt, parseCell } from '../components/areaReceipt'

/** One change a run made to a workbook, from one step's receipt: a rectangle of cells on a sheet. */
export interface CellChange {
  sheet: string
  /** The receipt's range without the sheet, e.g. `B2:B13`. */
  range: string
  /** What happened, e.g. `written`, `formula`, `formatted: bold`. */
  what: string
  /** 1-based bounds. */
  top: number
  left: number
  bottom: number
  right: number
}

function pathOf(args: unknown): string | undefined {
  if (args && typeof args === 'object' && 'path' in args) {
    const path = (args as { path: unknown }).path
    return typeof path === 'string' ? path : undefined
  }
  return undefined
}

const normal = (path: string) => `/${path.replace(/\\/g, '/').replace(/^\/+/, '')}`.replace(/\/{2,}/g, '/')

function bounds(range: string): Pick<CellChange, 'top' | 'left' | 'bottom' | 'right'> | undefined {
  const [from = '', to = from] = range.split(':')
  const a = parseCell(from)
  const b = parseCell(to)
  if (!a || !b) return undefined
  return {
    top: Math.min(a.row, b.row),
    bottom: Math.max(a.row, b.row),
    left: Math.min(a.column, b.column) + 1,
    right: Math.max(a.column, b.column) + 1,
  }
}

/** The cells the steps of a run changed in the workbook at `path`, in step order, from their receipts. */
export function receiptChanges(steps: readonly AgentStep[], path: string): CellChange[] {
  const wanted = normal(path)
  const changes: CellChange[] = []
  for (const step of steps) {
    if (step.status !== 'ok') continue
    const stepPath = pathOf(step.args)
    if (!stepPath || normal(stepPath) !== wanted) continue
    const result = step.result
    const receipt = isAreaReceipt(result) ? result : isSettingsReceipt(result) ? result : undefined
    if (!receipt) continue
    const range = receipt.range.includes('!')
      ? receipt.range.slice(receipt.range.lastIndexOf('!') + 1)
      : receipt.range
    const box = bounds(range)
    if (!box) continue
    const what = isAreaReceipt(result)
      ? result.formulas && Object.keys(result.formulas).length > 0
        ? 'formula'
        : 'written'
      : isSettingsReceipt(result)
        ? `formatted: ${result.applied.join(', ')}`
        : 'changed'
    changes.push({ sheet: receipt.sheet, range, what, ...box })
  }
  return changes
}

/** Whether any change covers the cell (1-based row and column) of `sheet`. */
export function changedAt(
  changes: readonly CellChange[],
  sheet: string,
  row: number,
  column: number,
): boolean {
  return changes.some(
    (c) => c.sheet === sheet && row >= c.top && row <= c.bottom && column >= c.left && column <= c.right,
  )
}

/** Files a run's steps changed with a receipt (agent paths), for the timeline's "Show in preview". */
export function receiptPaths(steps: readonly AgentStep[]): string[] {
  return [
    ...new Set(
      steps.flatMap((s) =>
        receiptChanges([s], pathOf(s.args) ?? '').length ? [normal(pathOf(s.args) ?? '')] : [],
      ),
    ),
  ]
}
