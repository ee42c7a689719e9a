import { renderTable } from '../markdown/table'
import { columnName, type ShapedTable } from './shapeGrid'

export interface RenderedSheet {
  markdown: string
  summarised: boolean
}

/**
 * Renders a shaped table, summarising it (first and last rows plus a count) when the full table
 * would not fit `maxChars`.
 */
export function renderSheet(table: ShapedTable, maxChars: number | undefined): RenderedSheet {
  const width = Math.max(table.header?.length ?? 0, ...table.rows.map((row) => row.length))
  const header = table.header ?? Array.from({ length: width }, (_, index) => columnName(index))
  const preamble = table.preamble.length > 0 ? `${table.preamble.join('\n\n')}\n\n` : ''
  const full = preamble + renderTable([header, ...table.rows])
  if (!maxChars || full.length <= maxChars || table.rows.length <= 4)
    return { markdown: full, summarised: false }

  const average = Math.max(8, (full.length - preamble.length) / (table.rows.length + 2))
  const fitting = Math.max(2, Math.floor((maxChars - preamble.length - 200) / average) - 2)
  const headCount = Math.max(1, Math.ceil(fitting * 0.7))
  const tailCount = Math.max(1, fitting - headCount)
  const omitted = table.rows.length - headCount - tailCount
  if (omitted <= 0) return { markdown: full, summarised: false }
  const gap = Array.from({ length: width }, (_, index) => (index === 0 ? `… ${omitted} rows omitted …` : '…'))
  const rows = [...table.rows.slice(0, headCount), gap, ...table.rows.slice(-tailCount)]
  const note = `\n\n(${table.rows.length} data rows in total; rows ${headCount + 1}–${headCount + omitted} are omitted to fit the budget.)`
  return { markdown: preamble + renderTable([header, ...rows]) + note, summarised: true }
}
