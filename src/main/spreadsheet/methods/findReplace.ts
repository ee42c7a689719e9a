import type { Cell, Worksheet } from 'exceljs'
import { z } from 'zod'
import { method } from '../../tools'
import { cellName, MAX_COLUMNS } from '../cells/address'
import { isFormulaCell, plainSnapshot, snapshot } from '../cells/cellValue'
import { displayText } from '../cells/displayValue'
import { eachExistingCell } from '../cells/sheetCells'
import { invalidInput } from '../errors'
import { FormulaChecker } from '../formulas/checkFormula'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { RECEIPT_CELLS } from '../workbook/receipt'
import { A1Range, AgentPath, SheetName, type WorkbooksHandle } from './schemas'
import { areaOnSheet } from './sheetTarget'

const ChangedCell = z.object({
  sheet: z.string(),
  cell: z.string(),
  before: z.string().describe('The text or formula before the change'),
  after: z.string().describe('The text or formula stored now, read back from the workbook'),
  shown: z.string().describe('The display value now (formulas computed)'),
})

export const FindReplaceReceipt = z.object({
  find: z.string(),
  replace: z.string(),
  in: z.enum(['values', 'formulas']),
  scope: z.string().describe('The sheet (and range) searched, or "workbook"'),
  changed: z.number().int().describe('How many cells changed'),
  cells: z.array(ChangedCell).describe(`The changed cells, the first ${RECEIPT_CELLS}`),
  truncated: z.string().optional(),
})
type FindReplaceReceipt = z.infer<typeof FindReplaceReceipt>

interface Match {
  ws: Worksheet
  cell: Cell
  row: number
  col: number
  before: string
  after: string
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Replaces `find` in `text` as asked; undefined when it does not match. */
export function replaceIn(
  text: string,
  find: string,
  replace: string,
  options: { matchCase: boolean; wholeCell: boolean },
): string | undefined {
  if (options.wholeCell) {
    const same = options.matchCase ? text === find : text.toLowerCase() === find.toLowerCase()
    return same ? replace : undefined
  }
  const pattern = new RegExp(escapeRegExp(find), options.matchCase ? 'g' : 'gi')
  if (!pattern.test(text)) return undefined
  pattern.lastIndex = 0
  return text.replace(pattern, () => replace)
}

/** The text a constant cell is searched in: its text, or a number as written (dates and errors are skipped). */
function searchableValue(cell: Cell, date1904: boolean): string | undefined {
  if (isFormulaCell(cell) || cell.type === 1 /* Merge */) return undefined
  const plain = plainSnapshot(cell.value, date1904)
  if (plain.kind === 'text') return String(plain.value)
  if (plain.kind === 'number' && !(cell.value instanceof Date)) return String(plain.value)
  return undefined
}

/** A replaced value keeps its kind: a number cell stays a number when the new text is one. */
function storedValue(cell: Cell, after: string): string | number | null {
  if (after === '') return null
  if (typeof cell.value === 'number') {
    const n = Number(after)
    if (after.trim() !== '' && Number.isFinite(n)) return n
  }
  return after
}

function findMatches(
  open: OpenWorkbook,
  sheets: Worksheet[],
  range: string | undefined,
  args: { find: string; replace: string; matchCase: boolean; wholeCell: boolean; lookIn: string },
): Match[] {
  const matches: Match[] = []
  for (const ws of sheets) {
    const area = range
      ? areaOnSheet(ws, range)
      : { top: 1, left: 1, bottom: Math.max(ws.rowCount, 1), right: MAX_COLUMNS }
    eachExistingCell(ws, area, (cell, row, col) => {
      const before =
        args.lookIn === 'formulas'
          ? isFormulaCell(cell)
            ? cell.formula
            : undefined
          : searchableValue(cell, open.date1904)
      if (before === undefined) return
      const after = replaceIn(before, args.find, args.replace, args)
      if (after === undefined || after === before) return
      matches.push({ ws, cell, row, col, before, after })
    })
  }
  return matches
}

export function findMethods(workbooks: WorkbooksHandle) {
  return {
    findReplace: method({
      description:
        'Finds text and replaces it in one sheet (optionally a range of it) or, without sheet, in every sheet. in=values searches text and number cells (formulas are left alone); in=formulas searches formula text (e.g. Sheet1! -> Data!), and every new formula is checked first: one that does not parse refuses the whole call and nothing changes. match_case and whole_cell as in a spreadsheet. Returns each changed cell with its text before and after, read back, and its display value.',
      input: z.object({
        path: AgentPath,
        sheet: SheetName.optional().describe('The sheet to search; omit to search the whole workbook'),
        range: A1Range.optional().describe('Only this range of the sheet (needs sheet)'),
        find: z.string().min(1),
        replace: z.string().describe('The replacement; "" removes the text found'),
        match_case: z.boolean().default(false),
        whole_cell: z.boolean().default(false).describe('Only cells whose whole content equals find'),
        in: z.enum(['values', 'formulas']).default('values'),
      }),
      output: FindReplaceReceipt,
      risk: 'write',
      examples: [{ path: '/sales.xlsx', sheet: 'Data', find: 'N. America', replace: 'North America' }],
      run: async (args, ctx): Promise<FindReplaceReceipt> => {
        if (args.range && !args.sheet) throw invalidInput('range needs sheet: name the sheet the range is on')
        const open = await workbooks.get(ctx).get(args.path)
        const sheets = args.sheet ? [open.sheet(args.sheet)] : open.workbook.worksheets
        const options = {
          find: args.find,
          replace: args.replace,
          matchCase: args.match_case,
          wholeCell: args.whole_cell,
          lookIn: args.in,
        }
        const matches = findMatches(open, sheets, args.range, options)
        if (args.in === 'formulas' && matches.length > 0) {
          const checker = new FormulaChecker(open.sheetNames())
          checker.checkAll(
            matches.map((m) => ({ formula: m.after, sheet: m.ws.name, label: cellName(m.row, m.col) })),
            'formula',
          )
        }
        for (const m of matches) {
          m.cell.value =
            args.in === 'formulas'
              ? ({ formula: m.after } as Cell['value'])
              : (storedValue(m.cell, m.after) as Cell['value'])
          const at = { top: m.row, left: m.col, bottom: m.row, right: m.col }
          open.changed(m.ws, at, args.in !== 'formulas')
        }
        open.calc()
        const cells = matches.slice(0, RECEIPT_CELLS).map((m) => {
          const s = snapshot(m.ws.findRow(m.row)?.findCell(m.col), open.date1904)
          const stored = s.formula !== undefined ? s.formula : s.kind === 'empty' ? '' : String(s.value)
          return {
            sheet: m.ws.name,
            cell: cellName(m.row, m.col),
            before: m.before,
            after: stored,
            shown: displayText(s),
          }
        })
        const receipt: FindReplaceReceipt = {
          find: args.find,
          replace: args.replace,
          in: args.in,
          scope: args.sheet ? `${sheets[0]!.name}${args.range ? `!${args.range}` : ''}` : 'workbook',
          changed: matches.length,
          cells,
        }
        if (matches.length > cells.length)
          receipt.truncated = `${matches.length - cells.length} more cells changed; read them with get_range.`
        return receipt
      },
    }),
  }
}
