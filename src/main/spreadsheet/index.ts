export type { OpenWorkbook } from './openWorkbook'
export type { AreaReceipt, SettingsReceipt } from './receipt'
export type { SaveReport, WriteBytes } from './saveWorkbook'

/** The `spreadsheet` toolset, loaded on demand (exceljs and the formula engine are heavy). */
export async function loadSpreadsheetToolset() {
  const { createSpreadsheetToolset } = await import('./toolset')
  return createSpreadsheetToolset()
}
