/** The `spreadsheet` toolset, loaded on demand (exceljs and the formula engine are heavy). */
export async function loadSpreadsheetToolset() {
  const { createSpreadsheetToolset } = await import('./toolset')
  return createSpreadsheetToolset()
}
