import { defineToolset } from '../tools'
import { filterMethods } from './filters'
import { conditionalFormatMethods } from './methods/conditionalFormats'
import { editMethods } from './methods/editMethods'
import { fileMethods } from './methods/fileMethods'
import { fillMethods } from './methods/fill'
import { findMethods } from './methods/findReplace'
import { formatMethods } from './methods/formatMethods'
import { hyperlinkMethods } from './methods/hyperlinks'
import { readMethods } from './methods/readMethods'
import { createWorkbooksHandle } from './methods/schemas'
import { seriesMethods } from './methods/series'
import { pivotMethods } from './pivot'
import { AREA_RECEIPT_EXPLAINED, SETTINGS_RECEIPT_EXPLAINED } from './workbook/receipt'

/** The `spreadsheet` toolset: real .xlsx editing with area receipts, computed formulas and safe saves. */
export function createSpreadsheetToolset() {
  const workbooks = createWorkbooksHandle()
  return defineToolset({
    name: 'spreadsheet',
    summary:
      'Reads and edits .xlsx workbooks in the workspace: values, formulas (computed), formats, tables, charts, pivot tables.',
    description: [
      'Every method takes the workbook path first. A workbook stays open in memory from its first use until close or the end of the session, when pending changes are saved. Start with describe_worksheet.',
      AREA_RECEIPT_EXPLAINED,
      SETTINGS_RECEIPT_EXPLAINED,
    ].join(' '),
    openFor: { extensions: ['.xlsx', '.xlsm'] },
    methods: {
      ...fileMethods(workbooks),
      ...readMethods(workbooks),
      ...editMethods(workbooks),
      ...formatMethods(workbooks),
      ...pivotMethods(workbooks),
      ...findMethods(workbooks),
      ...hyperlinkMethods(workbooks),
      ...fillMethods(workbooks),
      ...filterMethods(workbooks),
      ...seriesMethods(workbooks),
      ...conditionalFormatMethods(workbooks),
    },
  })
}
