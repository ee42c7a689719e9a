import type { Cell, Worksheet } from 'exceljs'
import { type FormulaRef, rewriteRefs } from '../formulas/formulaRefs'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { restyle } from './cellStyle'
import { isGeneralFormat } from './cellValue'

/** Sums and plain additions of references (=B2+C2, =SUM(B2:B9)) show in their inputs' format. */
const INHERITING = /^\s*(?:(?:SUM|MIN|MAX|AVERAGE)\s*\([^()]*\)|[^()*/^&"]*)\s*$/i

/**
 * A spreadsheet gives a formula typed into a General cell the number format of the first cell it adds
 * up (a total of prices shows as a price); LibreOffice does the same when it loads the file.
 */
export function inheritFormat(open: OpenWorkbook, ws: Worksheet, cell: Cell): void {
  if (!isGeneralFormat(cell.numFmt)) return
  const formula = cell.formula
  if (!formula || !INHERITING.test(formula)) return
  let first: FormulaRef | undefined
  rewriteRefs(formula, (ref) => {
    first ??= ref
    return undefined
  })
  if (!first || first.start.row === undefined || first.start.col === undefined) return
  const source = first.sheet
    ? open.workbook.worksheets.find((w) => w.name.toLowerCase() === first!.sheet!.toLowerCase())
    : ws
  const format = source?.findCell(first.start.row, first.start.col)?.numFmt
  if (format && !isGeneralFormat(format) && format !== '@')
    restyle(cell, (style) => ({ ...style, numFmt: format }))
}
