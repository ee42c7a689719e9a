import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import { method } from '../../tools'
import { invalidInput } from '../errors'
import { renameSheetInFormula } from '../formulas/formulaRefs'
import { SETTINGS_RECEIPT_DOC, SettingsReceipt } from '../workbook/receipt'
import { validSheetName } from '../workbook/sheetNames'
import { renameInFormulas } from './editing'
import { AgentPath, SaveReceipt, SheetName, WorkbookSummary, type WorkbooksHandle } from './schemas'
import { openSheet } from './sheetTarget'
import { saveReceipt, workbookSummary } from './summaries'

const SUMMARY_DOC = 'Returns {path, sheets: [{name, usedRange, rows, columns}], formulas, uncalculated?}.'
const SAVE_DOC =
  'Before writing, a deterministic pass runs: touched columns that still have the default width are sized to their content, text cells directly above numbers (table titles) get bold and a light fill unless styled, quoted number formats are unquoted. Formulas are computed and their results stored; the file is verified (every XML part parses, the workbook reopens) and then replaced atomically, keeping a numbered backup (book.001.bak) and a history version. Returns {path, bytes, backup?, version?, verified, carried, chartsAdded, widths, titles, unquotedFormats, uncalculated?}.'

const SheetList = z.object({ sheets: z.array(z.string()) })

export function fileMethods(workbooks: WorkbooksHandle) {
  return {
    open: method({
      description: `Opens a workbook (kept in memory until close or the end of the session) and computes its formulas. ${SUMMARY_DOC}`,
      input: z.object({ path: AgentPath }),
      output: WorkbookSummary,
      risk: 'read',
      examples: [{ path: '/reports/sales.xlsx' }],
      run: async (args, ctx) => {
        const { open, areas } = await workbooks.get(ctx).peek(args.path)
        return workbookSummary(open, areas)
      },
    }),
    create: method({
      description: `Creates a new empty workbook with one sheet; it is written on save, close or at the end of the session. ${SUMMARY_DOC}`,
      input: z.object({ path: AgentPath, sheet: SheetName.default('Sheet1') }),
      output: WorkbookSummary,
      risk: 'write',
      examples: [{ path: '/budget.xlsx', sheet: 'Budget' }],
      run: async (args, ctx) =>
        workbookSummary(await workbooks.get(ctx).create(args.path, validSheetName(args.sheet))),
    }),
    getSheetNames: method({
      description: 'Lists the worksheets in tab order. Returns {sheets: [...]}.',
      input: z.object({ path: AgentPath }),
      output: SheetList,
      risk: 'read',
      run: async (args, ctx) => ({ sheets: (await workbooks.get(ctx).get(args.path)).sheetNames() }),
    }),
    addSheet: method({
      description: `Adds an empty worksheet (at the end, or at 1-based position). ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        position: z.number().int().min(1).optional().describe('1-based tab position'),
      }),
      output: SettingsReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const open = await workbooks.get(ctx).get(args.path)
        const name = validSheetName(args.sheet, open.sheetNames())
        const ws = open.workbook.addWorksheet(name)
        if (args.position !== undefined) {
          const list = open.workbook.worksheets
          const others = list.filter((w) => w !== ws)
          others.splice(Math.min(args.position - 1, others.length), 0, ws)
          others.forEach((w, i) => {
            ;(w as unknown as { orderNo: number }).orderNo = i
          })
        }
        open.structureChanged()
        return {
          sheet: ws.name,
          range: 'A1',
          applied: [
            `added sheet at position ${open.sheetNames().indexOf(ws.name) + 1} of ${open.sheetNames().length}`,
          ],
        }
      },
    }),
    renameSheet: method({
      description: `Renames a worksheet and updates formulas that refer to it. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        new_name: z.string().min(1).describe('The new sheet name'),
      }),
      output: SettingsReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const name = validSheetName(
          args.new_name,
          open.sheetNames().filter((n) => n !== ws.name),
        )
        const old = ws.name
        // exceljs refuses a name equal to its own in another case; the name was checked above.
        if (old.toLowerCase() === name.toLowerCase()) (ws as unknown as { _name: string })._name = name
        else ws.name = name
        const rename = (f: string) => renameSheetInFormula(f, old, name)
        renameInFormulas(open, rename)
        open.rewrites.push(rename)
        for (const chart of open.charts) if (chart.sheet === old) chart.sheet = name
        open.structureChanged()
        return { sheet: name, range: 'A1', applied: [`renamed "${old}" to "${name}"`, 'formulas updated'] }
      },
    }),
    deleteSheet: method({
      description: `Deletes a worksheet (not the last one). Formulas that referred to it show #REF!. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({ path: AgentPath, sheet: SheetName }),
      output: SettingsReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        if (open.workbook.worksheets.length === 1)
          throw invalidInput(`Sheet "${ws.name}" is the only sheet; add another before deleting it`)
        open.workbook.removeWorksheet(ws.id)
        open.originalSheetParts.delete(ws.id)
        open.charts = open.charts.filter((c) => c.sheet !== ws.name)
        open.changed()
        return {
          sheet: ws.name,
          range: 'A1',
          applied: [`deleted; sheets now: ${open.sheetNames().join(', ')}`],
        }
      },
    }),
    save: method({
      description: `Saves the workbook to its path. ${SAVE_DOC}`,
      input: z.object({ path: AgentPath }),
      output: SaveReceipt,
      risk: 'write',
      run: async (args, ctx) => saveReceipt(await workbooks.get(ctx).save(args.path)),
    }),
    saveAs: method({
      description: 'Saves the workbook under a new path, as save does, and keeps working on that copy.',
      input: z.object({ path: AgentPath, new_path: AgentPath.describe('Where to save, an .xlsx path') }),
      output: SaveReceipt,
      risk: 'write',
      run: async (args, ctx) => saveReceipt(await workbooks.get(ctx).save(args.path, args.new_path)),
    }),
    restore: method({
      description:
        'Brings back the newest numbered backup of the file (the current file is backed up first, so this can be undone) and reloads it; unsaved changes are dropped. Returns {path, restoredFrom, discardedChanges, sheets, formulas, uncalculated?}.',
      input: z.object({ path: AgentPath }),
      output: WorkbookSummary.extend({ restoredFrom: z.string(), discardedChanges: z.boolean() }),
      risk: 'write',
      run: async (args, ctx) => {
        const store = workbooks.get(ctx)
        const receipt = await ctx.workspace
          .restoreBackup(args.path.startsWith('/') ? args.path : `/${args.path}`)
          .catch((error: unknown) => {
            if (error instanceof AppError && error.code === 'NOT_FOUND')
              throw new AppError('NOT_FOUND', `${args.path} has no backup to restore yet`)
            throw error
          })
        const discardedChanges = store.isOpen(args.path) ? store.forget(args.path) : false
        return {
          ...workbookSummary(await store.get(args.path)),
          restoredFrom: receipt.restoredFrom,
          discardedChanges,
        }
      },
    }),
    close: method({
      description: `Closes the workbook; pending changes are saved first unless save is false. Returns {path, closed, saved} where saved is the save receipt (see save) or null.`,
      input: z.object({
        path: AgentPath,
        save: z.boolean().default(true).describe('Save pending changes first'),
      }),
      output: z.object({ path: z.string(), closed: z.literal(true), saved: SaveReceipt.nullable() }),
      risk: 'write',
      run: async (args, ctx) => {
        const report = await workbooks.get(ctx).close(args.path, args.save)
        return { path: args.path, closed: true as const, saved: report ? saveReceipt(report) : null }
      },
    }),
  }
}
