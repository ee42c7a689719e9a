export type { OpenWorkbook } from './openWorkbook'
export type { AreaReceipt, SettingsReceipt } from './receipt'
export type { SaveReport, WriteBytes } from './saveWorkbook'
export type { SpreadsheetApi } from './toolsetApi'

/**
 * The `spreadsheet` toolset, loaded on demand (exceljs and the formula engine are heavy). The tools
 * framework passes in its functions, so this service needs no run-time import of the tools index.
 */
export async function loadSpreadsheetToolset(api: import('./toolsetApi').SpreadsheetApi) {
  const { createSpreadsheetToolset } = await import('./toolset')
  return createSpreadsheetToolset(api)
}
