import type { Worksheet } from 'exceljs'
import { z } from 'zod'
import { method, withFastCheck } from '../../tools'
import {
  type Area,
  areaName,
  cellName,
  columnLetters,
  columnNumber,
  MAX_COLUMNS,
  MAX_ROWS,
  parseCell,
} from '../cells/address'
import { requestArea } from '../cells/areaLimits'
import { inheritFormat } from '../cells/inheritFormat'
import { type CellInput, formulaBody, writeFormula } from '../cells/writeCell'
import { invalidInput } from '../errors'
import { FormulaChecker } from '../formulas/checkFormula'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { AREA_RECEIPT_DOC, AreaReceipt, SETTINGS_RECEIPT_DOC, SettingsReceipt } from '../workbook/receipt'
import { writeReceipt } from '../workbook/writeReceipt'
import { appendRows, belowUsed, clearArea, copyArea, setValues, sortArea, splice } from './editing'
import { A1Cell, A1Range, AgentPath, CellValue, Column, SheetName, type WorkbooksHandle } from './schemas'
import { areaOnSheet, filledReceipt, openSheet } from './sheetTarget'

function isCell(value: unknown): boolean {
  const type = typeof value
  return (
    type === 'string' || type === 'boolean' || value === null || (type === 'number' && Number.isFinite(value))
  )
}

/** A non-empty array of arrays of cells, exactly what `Values` accepts (checked without zod's per-cell walk). */
function isBlock(value: unknown): value is CellInput[][] {
  if (!Array.isArray(value) || value.length === 0) return false
  for (let i = 0; i < value.length; i++) {
    const line: unknown = value[i]
    if (!Array.isArray(line)) return false
    for (let j = 0; j < line.length; j++) if (!isCell(line[j])) return false
  }
  return true
}

const Values = withFastCheck(
  z.array(z.array(CellValue)).min(1).describe('Rows of values, e.g. [["Name","Qty"],["Pens",3]]'),
  isBlock,
)

function columnOf(text: string): number {
  const letters = text.trim().toUpperCase()
  if (!/^[A-Z]{1,3}$/.test(letters) || columnNumber(letters) > MAX_COLUMNS)
    throw invalidInput(`"${text}" is not a column letter (e.g. C)`)
  return columnNumber(letters)
}

/** Inserts (count > 0) or deletes (count < 0) rows or columns at `at` and describes what was done. */
function spliceLines(
  open: OpenWorkbook,
  ws: Worksheet,
  axis: 'row' | 'col',
  at: number,
  count: number,
): SettingsReceipt {
  splice(open, ws, axis, at, count)
  const n = Math.abs(count)
  const label = axis === 'row' ? String : columnLetters
  const lines = axis === 'row' ? 'row(s)' : 'column(s)'
  const done = count > 0 ? `inserted ${n} ${lines} at` : `deleted ${n} ${lines} from`
  return {
    sheet: ws.name,
    range: `${label(at)}:${label(at + n - 1)}`,
    applied: [`${done} ${label(at)}`, 'formulas adjusted'],
  }
}

export function editMethods(workbooks: WorkbooksHandle) {
  /** insertRows (`sign` 1) and deleteRows (-1): one shape, the direction and the count's ceiling differ. */
  const rowsMethod = (sign: 1 | -1, maxCount: number, description: string) =>
    method({
      description: `${description} ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        row: z.number().int().min(1).max(MAX_ROWS),
        count: z.number().int().min(1).max(maxCount).default(1),
      }),
      output: SettingsReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        return spliceLines(open, ws, 'row', args.row, sign * args.count)
      },
    })
  /** insertColumns and deleteColumns, likewise. */
  const columnsMethod = (sign: 1 | -1, description: string) =>
    method({
      description: `${description} ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        column: Column,
        count: z.number().int().min(1).max(1000).default(1),
      }),
      output: SettingsReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        return spliceLines(open, ws, 'col', columnOf(args.column), sign * args.count)
      },
    })
  return {
    setCellValue: method({
      description: `Writes one cell. ${AREA_RECEIPT_DOC}`,
      input: z.object({ path: AgentPath, sheet: SheetName, cell: A1Cell, value: CellValue }),
      output: AreaReceipt,
      risk: 'write',
      examples: [{ path: '/sales.xlsx', sheet: 'Data', cell: 'B2', value: 1250 }],
      run: async (args, ctx) => {
        const at = parseCell(args.cell)
        const values = [[args.value]]
        const outlined = await workbooks.get(ctx).writeOutlined(args.path, args.sheet, values, () => at)
        if (outlined) return outlined
        const { open, ws } = await openSheet(workbooks, ctx, args)
        return filledReceipt(open, ws, setValues(open, ws, at, values))
      },
    }),
    setRange: method({
      description: `Writes a 2-D block of values starting at the top-left cell start. ${AREA_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        start: A1Cell.describe('Top-left cell, e.g. A1'),
        values: Values,
      }),
      output: AreaReceipt,
      risk: 'write',
      examples: [
        {
          path: '/sales.xlsx',
          sheet: 'Data',
          start: 'A1',
          values: [
            ['Region', 'Sales'],
            ['North', 1200],
          ],
        },
      ],
      run: async (args, ctx) => {
        const start = parseCell(args.start)
        const outlined = await workbooks
          .get(ctx)
          .writeOutlined(args.path, args.sheet, args.values, () => start)
        if (outlined) return outlined
        const { open, ws } = await openSheet(workbooks, ctx, args)
        return filledReceipt(open, ws, setValues(open, ws, start, args.values))
      },
    }),
    appendRows: method({
      description: `Appends rows below the last used row, starting in the first used column. ${AREA_RECEIPT_DOC}`,
      input: z.object({ path: AgentPath, sheet: SheetName, rows: Values }),
      output: AreaReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const outlined = await workbooks.get(ctx).writeOutlined(args.path, args.sheet, args.rows, belowUsed)
        if (outlined) return outlined
        const { open, ws } = await openSheet(workbooks, ctx, args)
        return filledReceipt(open, ws, appendRows(open, ws, args.rows))
      },
    }),
    setCellFormula: method({
      description: `Puts a formula in a cell (with or without the leading =) and computes it; in a General cell a sum or addition takes the number format of its first input, as in a spreadsheet; formulas the engine cannot compute are listed under uncalculated (spreadsheet apps recompute them on open). A formula that does not parse, links to another program or workbook, uses table references or names a missing sheet is refused and nothing changes. ${AREA_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        cell: A1Cell,
        formula: z.string().min(1).describe('e.g. =SUM(B2:B10)'),
      }),
      output: AreaReceipt,
      risk: 'write',
      examples: [{ path: '/sales.xlsx', sheet: 'Data', cell: 'B11', formula: '=SUM(B2:B10)' }],
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const at = parseCell(args.cell)
        const where = { sheet: ws.name, label: cellName(at.row, at.col) }
        new FormulaChecker(open.sheetNames()).check(formulaBody(args.formula), where, 'formula')
        const cell = ws.getCell(at.row, at.col)
        writeFormula(cell, args.formula)
        inheritFormat(open, ws, cell)
        const area = { top: at.row, left: at.col, bottom: at.row, right: at.col }
        open.changed(ws, area)
        return filledReceipt(open, ws, area)
      },
    }),
    clearRange: method({
      description: `Clears contents (default), formats or both in a range. Whole columns (A:C), whole rows (2:5) and the whole sheet (A:XFD) work: only cells that hold something are visited, and clearing formats there also removes the column or row style. ${AREA_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        range: A1Range,
        what: z.enum(['contents', 'formats', 'all']).default('contents'),
      }),
      output: AreaReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const req = requestArea(args.range)
        const { cells, notes } = clearArea(open, ws, req, args.what)
        return writeReceipt(open, ws, { area: req.area, focus: cells.area, changed: cells.count, notes })
      },
    }),
    insertRows: rowsMethod(1, 10_000, 'Inserts empty rows before row; formulas everywhere are adjusted.'),
    deleteRows: rowsMethod(
      -1,
      100_000,
      'Deletes rows; formulas pointing into them become #REF!, others are adjusted.',
    ),
    insertColumns: columnsMethod(1, 'Inserts empty columns before column; formulas everywhere are adjusted.'),
    deleteColumns: columnsMethod(
      -1,
      'Deletes columns; formulas pointing into them become #REF!, others are adjusted.',
    ),
    copyRange: method({
      description: `Copies values, formulas (relative references shift) and styles to another place, optionally on another sheet. ${AREA_RECEIPT_DOC} (of the target area)`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        source: A1Range.describe('Range to copy'),
        target: A1Cell.describe('Top-left cell of the destination'),
        target_sheet: SheetName.optional().describe('Destination sheet (default: the same)'),
      }),
      output: AreaReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const open = await workbooks.get(ctx).get(args.path)
        const from = open.sheet(args.sheet)
        const to = args.target_sheet ? open.sheet(args.target_sheet) : from
        const area = areaOnSheet(from, args.source)
        return filledReceipt(open, to, copyArea(open, from, area, to, parseCell(args.target)))
      },
    }),
    sortRange: method({
      description: `Sorts the rows of a range by one column (by) or several (keys, the first deciding first), as a spreadsheet sorts: ascending puts numbers and dates first, then text (any case), then booleans, then errors; blanks stay last in both directions, and rows that tie keep their order. With has_header=true the first row stays on top and a key may name a header. ${AREA_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        range: A1Range,
        by: Column.optional().describe('Column letter to sort by, e.g. C (or give keys)'),
        descending: z.boolean().default(false).describe('The order for by'),
        keys: z
          .array(
            z.object({
              column: z.string().min(1).describe('Column letter, or header text when has_header'),
              descending: z.boolean().default(false),
            }),
          )
          .min(1)
          .max(64)
          .optional()
          .describe('Several sort keys, e.g. [{"column":"Region"},{"column":"D","descending":true}]'),
        has_header: z.boolean().default(true),
      }),
      output: AreaReceipt,
      risk: 'write',
      examples: [
        {
          path: '/sales.xlsx',
          sheet: 'Data',
          range: 'A1:D200',
          keys: [{ column: 'Region' }, { column: 'D', descending: true }],
        },
      ],
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        if ((args.by === undefined) === (args.keys === undefined))
          throw invalidInput('give either by (one column) or keys (several), not both')
        const asked: Area = areaOnSheet(ws, args.range)
        const headers = new Map<string, number>()
        if (args.has_header)
          for (let c = asked.left; c <= Math.min(asked.right, Math.max(ws.columnCount, asked.left)); c++) {
            const text = ws.findCell(asked.top, c)?.text?.trim().toLowerCase()
            if (text && !headers.has(text)) headers.set(text, c)
          }
        const keys = (args.keys ?? [{ column: args.by!, descending: args.descending }]).map((key) => ({
          col: headers.get(key.column.trim().toLowerCase()) ?? columnOf(key.column),
          descending: key.descending,
        }))
        // Rows and columns past the sheet's last ones are empty and stay last: sorting them changes nothing.
        const area = {
          ...asked,
          bottom: Math.min(asked.bottom, Math.max(ws.rowCount, asked.top + 1)),
          right: Math.min(asked.right, Math.max(ws.columnCount, ...keys.map((k) => k.col), asked.left)),
        }
        const body = args.has_header ? { ...area, top: area.top + 1 } : area
        if (body.top > body.bottom) throw invalidInput(`range ${areaName(area)} has no rows to sort`)
        sortArea(open, ws, body, keys)
        return filledReceipt(open, ws, area)
      },
    }),
  }
}
