import { z } from 'zod'
import { type SessionStateHandle, sessionState } from '../../tools'
import { UncalculatedFormula } from '../formulas/formulaSchemas'
import { WorkbookStore } from '../workbook/workbookStore'

export const AgentPath = z
  .string()
  .min(1)
  .describe('The workbook, an .xlsx path in the workspace, e.g. /reports/q3.xlsx')
export const SheetName = z.string().min(1).describe('Sheet name, e.g. Sheet1')
export const A1Cell = z.string().min(2).describe('A cell in A1 notation, e.g. B2')
export const A1Range = z
  .string()
  .min(1)
  .describe('A range in A1 notation, e.g. A1:D20 (A:C for whole columns, 2:5 for whole rows)')
export const CellValue = z
  .union([z.string(), z.number(), z.boolean(), z.null()])
  .describe(
    'Number, text, boolean or null (clears). Text is read as typed in a spreadsheet: "=SUM(A1:A3)" is a formula, "12%", "$1,200" and "2024-03-01" become numbers with a format, a leading \' keeps text as is (\'=SUM( stores the text =SUM(). A formula that does not parse, links to another program or workbook, uses table references or names a missing sheet is refused and nothing in the call is written',
  )
export const Column = z.string().min(1).describe('Column letter(s), e.g. C')

export type WorkbooksHandle = SessionStateHandle<WorkbookStore>

/** Open workbooks of this tool session; pending changes are saved when the session ends. */
export function createWorkbooksHandle(): WorkbooksHandle {
  return sessionState(
    'spreadsheet.workbooks',
    (ctx) => new WorkbookStore(() => ctx.workspace),
    (store) => store.disposeAll(),
    (store) => store.flushAll(),
  )
}

export const SheetSummary = z.object({
  name: z.string(),
  usedRange: z.string().nullable(),
  rows: z.number().int(),
  columns: z.number().int(),
})

export const WorkbookSummary = z.object({
  path: z.string(),
  sheets: z.array(SheetSummary),
  formulas: z.number().int().describe('Formula cells computed by the engine'),
  uncalculated: z.array(UncalculatedFormula).optional().describe('Formulas the engine could not compute'),
})

export const SaveReceipt = z.object({
  path: z.string(),
  bytes: z.number().int(),
  backup: z.string().optional().describe('The numbered backup of the previous file, e.g. /book.001.bak'),
  version: z.string().optional().describe('History version of this save'),
  verified: z
    .literal('reopened')
    .describe('Every XML part parsed, the zip read back as written and the workbook reopened'),
  carried: z
    .array(z.string())
    .describe('Parts kept from the original that the library alone would have dropped'),
  chartsAdded: z.number().int(),
  widths: z.record(z.string(), z.number()).describe('Columns auto-sized from their content'),
  titles: z.array(z.string()).describe('Cells styled as table titles'),
  unquotedFormats: z.array(z.string()),
  uncalculated: z.array(UncalculatedFormula).optional(),
})
