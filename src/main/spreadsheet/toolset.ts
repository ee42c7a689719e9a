import { defineToolset } from '../tools'
import { editMethods } from './methods/editMethods'
import { fileMethods } from './methods/fileMethods'
import { formatMethods } from './methods/formatMethods'
import { readMethods } from './methods/readMethods'
import { createWorkbooksHandle } from './methods/schemas'

/** The `spreadsheet` toolset: real .xlsx editing with area receipts, computed formulas and safe saves. */
export function createSpreadsheetToolset() {
  const workbooks = createWorkbooksHandle()
  return defineToolset({
    name: 'spreadsheet',
    summary:
      'Reads and edits .xlsx workbooks in the workspace: values, formulas (computed), formats, tables, charts.',
    description:
      'Every method takes the workbook path first. A workbook stays open in memory from its first use until close or the end of the session, when pending changes are saved. Writing methods return the area receipt {sheet, range, rows, columns, values (display text), formulas?, types?, formats?, uncalculated?}; settings methods return {sheet, range, applied}. Start with describe_worksheet.',
    methods: {
      ...fileMethods(workbooks),
      ...readMethods(workbooks),
      ...editMethods(workbooks),
      ...formatMethods(workbooks),
    },
  })
}
