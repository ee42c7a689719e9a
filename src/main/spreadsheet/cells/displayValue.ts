import { format } from 'numfmt'
import type { CellSnapshot } from './cellValue'
import { DAYS_1900_TO_1904, isGeneralFormat } from './cellValue'

function formatNumber(pattern: string, value: number): string {
  try {
    return format(pattern, value)
  } catch {
    return format('General', value)
  }
}

/** The text a person sees in the cell: number formats applied, formula results shown. */
export function displayText(cell: CellSnapshot): string {
  switch (cell.kind) {
    case 'empty':
      return ''
    case 'boolean':
      return cell.value ? 'TRUE' : 'FALSE'
    case 'error':
    case 'text':
      return String(cell.value)
    default: {
      const value = cell.value as number
      const general = isGeneralFormat(cell.numFmt)
      // Fast path: General shows small integers as they are.
      if (general && Number.isInteger(value) && Math.abs(value) < 1e11) return String(value)
      // numfmt counts from 1900; a 1904 workbook's date serials are behind.
      const shifted = cell.date1904 && cell.kind === 'date' ? value + DAYS_1900_TO_1904 : value
      return formatNumber(general ? 'General' : cell.numFmt!, shifted)
    }
  }
}
