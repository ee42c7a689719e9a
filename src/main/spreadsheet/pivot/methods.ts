import { z } from 'zod'
import { method } from '../../tools'
import { cellCount } from '../cells/areaLimits'
import { A1Cell, AgentPath, SheetName, type WorkbooksHandle } from '../methods/schemas'
import { AREA_RECEIPT_DOC, AreaReceipt } from '../workbook/receipt'
import { writeReceipt } from '../workbook/writeReceipt'
import { SUMMARIES } from './compute'
import { createPivotOnOutline, createPivotTable, type PivotOutcome, refreshPivotTable } from './pivotTables'

const FieldName = z.string().min(1).describe('A column of the source, by its header text')

const PivotInfo = z.object({
  name: z.string(),
  location: z.string().describe('The table on its sheet (page filters sit above it)'),
  source: z.string(),
  records: z.number().int().describe('Rows of the source'),
  counted: z.number().int().describe('Rows that passed the filters'),
})

const PivotReceipt = AreaReceipt.extend({ pivot: PivotInfo })

function receipt(
  open: Parameters<typeof writeReceipt>[0],
  outcome: PivotOutcome,
): z.input<typeof PivotReceipt> {
  const { ws, area, ...pivot } = outcome
  return { ...writeReceipt(open, ws, { area, focus: area, changed: cellCount(area) }), pivot }
}

export function pivotMethods(workbooks: WorkbooksHandle) {
  return {
    createPivotTable: method({
      description: `Makes a real pivot table (pivot cache and table parts that Excel and LibreOffice open as a pivot table and refresh) and writes its computed cells, so get_range and other programs see the numbers. Layout: tabular, one column per row field, no subtotals, grand totals; filters on fields not in rows or columns become page filters above the table. The target area must be empty and apart from the source; a target sheet that does not exist is created. ${AREA_RECEIPT_DOC} Plus pivot: {name, location, source, records, counted}.`,
      input: z.object({
        path: AgentPath,
        source: z
          .string()
          .min(1)
          .describe('Header row + data: Data!A1:F500, Data!A:F, or a table name such as Sales'),
        target: z.object({
          sheet: SheetName.describe('Sheet of the pivot table; created when missing'),
          cell: A1Cell.default('A3').describe('Top-left cell (page filters start here)'),
        }),
        rows: z.array(FieldName).min(1),
        columns: z.array(FieldName).default([]),
        values: z
          .array(
            z.object({
              field: FieldName,
              summary: z.enum(SUMMARIES).default('sum'),
              name: z.string().optional().describe('Caption, default "Sum of Amount" and so on'),
              number_format: z.string().optional().describe('e.g. #,##0.00'),
            }),
          )
          .min(1),
        filters: z
          .array(
            z.object({
              field: FieldName,
              include: z
                .array(z.union([z.string(), z.number(), z.boolean()]))
                .min(1)
                .describe('Items kept, as shown (dates as 2024-03-01, blank as "(blank)")'),
            }),
          )
          .default([]),
        name: z.string().min(1).max(255).optional().describe('Default PivotTable1, PivotTable2…'),
      }),
      output: PivotReceipt,
      risk: 'write',
      examples: [
        {
          path: '/sales.xlsx',
          source: 'Data!A1:F500',
          target: { sheet: 'Pivot', cell: 'A3' },
          rows: ['Region'],
          columns: ['Year'],
          values: [{ field: 'Amount', summary: 'sum' }],
        },
      ],
      run: async ({ path, target, ...request }, ctx) => {
        const store = workbooks.get(ctx)
        // A workbook read as an outline keeps its source rows as bytes: the pivot reads them from there.
        const outline = await store.outlined(path)
        const outlined = outline && (await createPivotOnOutline(outline, request, target))
        if (outline && outlined) return receipt(outline.open, outlined)
        const open = await store.get(path)
        return receipt(open, createPivotTable(open, request, target))
      },
    }),
    refreshPivotTable: method({
      description: `Recomputes a pivot table (made here or found in the file) from its source as it is now: its cells and its cache. name may be left out when the sheet has one pivot table. A refreshed table that would grow over other data is refused. ${AREA_RECEIPT_DOC} Plus pivot.`,
      input: z.object({ path: AgentPath, sheet: SheetName, name: z.string().optional() }),
      output: PivotReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const open = await workbooks.get(ctx).get(args.path)
        return receipt(open, refreshPivotTable(open, open.sheet(args.sheet), args.name))
      },
    }),
  }
}
