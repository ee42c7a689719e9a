import { z } from 'zod'
import { method } from '../../tools'
import { areaName, parseArea } from '../cells/address'
import { sheetArea, usedArea } from '../cells/usedRange'
import { PAGE_CELLS, PAGE_COLUMNS, planRangePage } from '../workbook/rangePage'
import { AreaReceipt, areaReceipt } from '../workbook/receipt'
import { describeWorksheet, findCells } from './describe'
import { A1Range, AgentPath, SheetName, type WorkbooksHandle } from './schemas'
import { openSheet } from './sheetTarget'

const ColumnInfo = z.object({
  column: z.string(),
  name: z.string(),
  type: z.enum(['number', 'text', 'date', 'boolean', 'mixed', 'empty']),
})

const SheetDescription = z.object({
  sheet: z.string(),
  usedRange: z.string().nullable(),
  rows: z.number().int(),
  columns: z.number().int(),
  headerRow: z.number().int().nullable(),
  columnInfo: z.array(ColumnInfo),
  sampleRows: z.array(z.array(z.string())),
  tables: z.array(z.object({ name: z.string(), range: z.string() })),
  charts: z.array(
    z.object({ type: z.string(), title: z.string().optional(), anchor: z.string().optional() }),
  ),
  pivots: z
    .array(
      z.object({
        name: z.string(),
        range: z.string(),
        source: z.string(),
        rows: z.array(z.string()),
        columns: z.array(z.string()),
        values: z.array(z.string()),
      }),
    )
    .optional(),
  mergedRanges: z.array(z.string()),
  formulaCount: z.number().int(),
  frozen: z.object({ rows: z.number().int(), columns: z.number().int() }).nullable(),
  hidden: z.boolean().optional(),
})

const PAGE_ROWS = 200

const RangePage = AreaReceipt.partial({
  formulas: true,
  types: true,
  formats: true,
  uncalculated: true,
}).extend({
  nextPage: z.number().int().optional().describe('Pass as page to read the next rows'),
  totalRows: z.number().int(),
  nextRange: z.string().optional().describe('The columns left out of a wide range: read this range next'),
  truncated: z.string().optional().describe('What a wide range left out and how to read it'),
})

export function readMethods(workbooks: WorkbooksHandle) {
  return {
    describeWorksheet: method({
      description:
        'Describes a worksheet compactly: {sheet, usedRange, rows, columns, headerRow, columnInfo: [{column, name, type}], sampleRows (first rows as display text), tables, charts, pivots?, mergedRanges, formulaCount, frozen}. Start here before reading or editing.',
      input: z.object({ path: AgentPath, sheet: SheetName }),
      output: SheetDescription,
      risk: 'read',
      examples: [{ path: '/sales.xlsx', sheet: 'Data' }],
      run: async (args, ctx) => {
        const { open, areas } = await workbooks.get(ctx).peek(args.path)
        const ws = open.sheet(args.sheet)
        return describeWorksheet(open, ws, sheetArea(ws, areas))
      },
    }),
    getRange: method({
      description: `Reads a range as display values (number formats applied, formula results computed), ${PAGE_ROWS} rows per page by default. Whole columns (A:C) stop at the last used row. A range wider than ${PAGE_COLUMNS} columns drops the empty columns past the last used one and returns ${PAGE_COLUMNS} columns per call (nextRange names the rest, truncated says what was left out); a page holds at most ${PAGE_CELLS.toLocaleString('en-US')} cells, so wide pages have fewer rows. With detailed=true the page is the full area receipt: formulas, types (cells not listed are numbers), formats and uncalculated as sparse maps keyed by cell. Returns {sheet, range, rows, columns, values, ..., totalRows, nextPage?, nextRange?, truncated?}.`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        range: A1Range,
        detailed: z.boolean().default(false).describe('Include formulas, types, formats'),
        page: z.number().int().min(1).default(1),
        page_rows: z.number().int().min(1).max(5000).default(PAGE_ROWS),
      }),
      output: RangePage,
      risk: 'read',
      examples: [{ path: '/sales.xlsx', sheet: 'Data', range: 'A1:F20' }],
      run: async (args, ctx) => {
        // An outline reads the page from the file's bytes: no whole load for a look at some rows.
        const outlined = await workbooks.get(ctx).readOutlined(args.path, args.sheet)
        const { open, ws } = outlined ?? (await openSheet(workbooks, ctx, args))
        const used = (outlined ? outlined.used : usedArea(ws)) ?? { top: 1, left: 1, bottom: 1, right: 1 }
        const area = parseArea(args.range, used)
        if (/^[A-Za-z]+:[A-Za-z]+$/.test(args.range.trim())) area.bottom = Math.max(used.bottom, 1)
        const plan = planRangePage(area, used.right, args.page, args.page_rows)
        const { totalRows, nextPage, nextRange, truncated } = plan
        const extra = { totalRows, ...(nextPage ? { nextPage } : {}), ...(nextRange ? { nextRange } : {}) }
        const notes = truncated ? { truncated } : {}
        if (plan.page.top > area.bottom)
          return {
            sheet: ws.name,
            range: areaName(area),
            rows: 0,
            columns: plan.page.right - plan.page.left + 1,
            values: [],
            ...extra,
            ...notes,
          }
        const receipt = areaReceipt(open, ws, plan.page, outlined?.read)
        const page = args.detailed
          ? receipt
          : {
              sheet: receipt.sheet,
              range: receipt.range,
              rows: receipt.rows,
              columns: receipt.columns,
              values: receipt.values,
            }
        return { ...page, ...extra, ...notes }
      },
    }),
    find: method({
      description:
        'Finds cells by their display text (or raw number) or by formula text, in one sheet or all. Returns {matches: [{sheet, cell, value, formula?}], truncated}.',
      input: z.object({
        path: AgentPath,
        query: z.string().min(1).describe('Text to look for'),
        sheet: SheetName.optional().describe('Limit to one sheet'),
        match: z.enum(['contains', 'exact', 'regex']).default('contains'),
        in: z.enum(['values', 'formulas']).default('values'),
        limit: z.number().int().min(1).max(1000).default(50),
      }),
      output: z.object({
        matches: z.array(
          z.object({
            sheet: z.string(),
            cell: z.string(),
            value: z.string(),
            formula: z.string().optional(),
          }),
        ),
        truncated: z.boolean(),
      }),
      risk: 'read',
      examples: [{ path: '/sales.xlsx', query: 'North' }],
      run: async (args, ctx) => {
        const open = await workbooks.get(ctx).get(args.path)
        return findCells(open, {
          query: args.query,
          sheet: args.sheet ? open.sheet(args.sheet) : undefined,
          match: args.match,
          in: args.in,
          limit: args.limit,
        })
      },
    }),
  }
}
