import { z } from 'zod'
import { method } from '../../tools'
import { areaName, columnLetters, columnNumber, parseCell } from '../cells/address'
import { areaLabel, countText, MAX_AREA_CELLS, requestArea } from '../cells/areaLimits'
import { usedArea } from '../cells/usedRange'
import { CHART_TYPES } from '../charts/chartXml'
import { deleteChart } from '../charts/deleteChart'
import { resolveSeries } from '../charts/seriesInput'
import { type ChartChange, updateChart } from '../charts/updateChart'
import { invalidInput } from '../errors'
import { AREA_RECEIPT_DOC, AreaReceipt, SETTINGS_RECEIPT_DOC, SettingsReceipt } from '../workbook/receipt'
import { writeReceipt } from '../workbook/writeReceipt'
import { ChartSeriesInput, chartOptionFields, chartOptions } from './chartSchemas'
import { addMoreRule, ICON_SETS, listRules, MORE_RULES } from './conditionalFormats'
import {
  applyStyle,
  formatHeaderRow,
  freezePanes,
  mergeCells,
  setColumnWidth,
  setNumberFormat,
} from './formatting'
import { A1Cell, A1Range, AgentPath, SheetName, type WorkbooksHandle } from './schemas'
import { addChart, addConditionalFormat, addDataValidation, addTable, setPageSetup } from './sheetFeatures'
import { areaOnSheet, filledReceipt, openSheet } from './sheetTarget'

const Color = z
  .string()
  .describe('Hex colour like #1F77B4 (or black, white, red, green, blue, yellow, orange, grey)')

export function formatMethods(workbooks: WorkbooksHandle) {
  return {
    applyStyle: method({
      description: `Styles a range: font (bold, italic, underline, size, name, colour), fill, border, alignment, wrap. Only the given parts change. Whole columns (A:C) and whole rows (2:5) get a column or row style, as in a spreadsheet app, so cells filled there later look the same; other ranges are styled cell by cell, filling at most ${countText(MAX_AREA_CELLS)} empty cells. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        range: A1Range,
        bold: z.boolean().optional(),
        italic: z.boolean().optional(),
        underline: z.boolean().optional(),
        font_size: z.number().min(1).max(409).optional(),
        font_name: z.string().optional(),
        font_color: Color.optional(),
        fill_color: Color.optional(),
        border: z.enum(['none', 'thin', 'medium', 'thick', 'dashed', 'double']).optional(),
        border_color: Color.optional(),
        horizontal_align: z.enum(['left', 'center', 'right', 'fill', 'justify']).optional(),
        vertical_align: z.enum(['top', 'middle', 'bottom']).optional(),
        wrap: z.boolean().optional(),
      }),
      output: SettingsReceipt,
      risk: 'write',
      examples: [{ path: '/sales.xlsx', sheet: 'Data', range: 'A1:D1', bold: true, fill_color: '#DDEBF7' }],
      run: async ({ path, sheet, range, ...style }, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, { path, sheet })
        const req = requestArea(range)
        return { sheet: ws.name, range: areaLabel(req.area), applied: applyStyle(open, ws, req, style) }
      },
    }),
    setNumberFormat: method({
      description: `Sets the number format of a range, such as "#,##0.00", "0.0%", "yyyy-mm-dd" or "$#,##0"; quotes around the whole format are removed. Whole columns (A:C) and whole rows (2:5) carry the format, so values typed there later get it too; a range that would fill more than ${countText(MAX_AREA_CELLS)} empty cells formats only the cells the sheet holds in it. ${AREA_RECEIPT_DOC}`,
      input: z.object({ path: AgentPath, sheet: SheetName, range: A1Range, format: z.string().min(1) }),
      output: AreaReceipt,
      risk: 'write',
      examples: [{ path: '/sales.xlsx', sheet: 'Data', range: 'C2:C20', format: '$#,##0.00' }],
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const req = requestArea(args.range)
        const { styled, notes } = setNumberFormat(open, ws, req, args.format)
        const { area: focus, count: changed } = styled.cells
        return writeReceipt(open, ws, { area: req.area, focus, changed, notes })
      },
    }),
    formatHeaderRow: method({
      description: `Makes a row look like a table header: bold, light fill, thin bottom border, across the used columns. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({ path: AgentPath, sheet: SheetName, row: z.number().int().min(1).default(1) }),
      output: SettingsReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const right = usedArea(ws)?.right ?? 1
        return {
          sheet: ws.name,
          range: `A${args.row}:${columnLetters(right)}${args.row}`,
          applied: formatHeaderRow(open, ws, args.row, right),
        }
      },
    }),
    setColumnWidth: method({
      description: `Sets the width (in characters) of one column (C) or several (C:F). ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        columns: z.string().min(1).describe('C or C:F'),
        width: z.number().min(0).max(255),
      }),
      output: SettingsReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const m = /^([A-Za-z]{1,3})(?::([A-Za-z]{1,3}))?$/.exec(args.columns.trim())
        if (!m) throw invalidInput(`"${args.columns}" is not a column or column range (e.g. C or C:F)`)
        const a = columnNumber(m[1]!)
        const b = columnNumber(m[2] ?? m[1]!)
        setColumnWidth(open, ws, Math.min(a, b), Math.max(a, b), args.width)
        return {
          sheet: ws.name,
          range: `${columnLetters(Math.min(a, b))}:${columnLetters(Math.max(a, b))}`,
          applied: [`width ${args.width}`],
        }
      },
    }),
    mergeCells: method({
      description: `Merges a range into one cell (the top-left value is kept), filling at most ${countText(MAX_AREA_CELLS)} empty cells. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({ path: AgentPath, sheet: SheetName, range: A1Range }),
      output: SettingsReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        // As asked: merging whole columns is not merging the rows that happen to be used.
        const { area } = requestArea(args.range)
        mergeCells(open, ws, area)
        return { sheet: ws.name, range: areaLabel(area), applied: [`merged ${areaLabel(area)}`] }
      },
    }),
    freezePanes: method({
      description: `Freezes the rows above and the columns left of cell (B2 freezes row 1 and column A; A2 only row 1; A1 unfreezes). ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({ path: AgentPath, sheet: SheetName, cell: A1Cell }),
      output: SettingsReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const at = parseCell(args.cell)
        return {
          sheet: ws.name,
          range: args.cell.toUpperCase(),
          applied: [freezePanes(open, ws, at.row, at.col)],
        }
      },
    }),
    setPageSetup: method({
      description: `Print settings: orientation, paper size, fit to pages, print area, header rows repeated on each page, margins. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        orientation: z.enum(['portrait', 'landscape']).optional(),
        paper_size: z.enum(['A4', 'A3', 'letter', 'legal']).optional(),
        fit_to_width: z.number().int().min(0).max(100).optional().describe('Pages wide'),
        fit_to_height: z
          .number()
          .int()
          .min(0)
          .max(100)
          .optional()
          .describe('Pages tall (0 = as many as needed)'),
        print_area: A1Range.optional(),
        repeat_header_rows: z.string().optional().describe('Rows repeated on each page, e.g. 1:1'),
        margins: z.enum(['normal', 'narrow', 'wide']).optional(),
      }),
      output: SettingsReceipt,
      risk: 'write',
      run: async ({ path, sheet, ...setup }, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, { path, sheet })
        const used = usedArea(ws)
        return {
          sheet: ws.name,
          range: setup.print_area ?? (used ? areaName(used) : 'A1'),
          applied: setPageSetup(open, ws, setup),
        }
      },
    }),
    addTable: method({
      description: `Turns a range (header row first) into a formatted table with filter buttons. ${AREA_RECEIPT_DOC} Plus table: the table's name.`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        range: A1Range,
        name: z.string().optional().describe('Table name (letters, digits, _); default Table1, Table2...'),
        style: z
          .string()
          .default('TableStyleMedium2')
          .describe('Built-in table style, e.g. TableStyleLight9'),
      }),
      output: AreaReceipt.extend({ table: z.string() }),
      risk: 'write',
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const area = areaOnSheet(ws, args.range)
        const table = addTable(open, ws, area, args.name, args.style)
        return { ...filledReceipt(open, ws, area), table }
      },
    }),
    addChart: method({
      description: `Adds a chart (${CHART_TYPES.join(', ')}). Data: data_range (header row = series names, first column = categories or scatter x values, other columns = series) or series, a list with each series' own ranges, possibly on other sheets. combo: the first series is a column, the others lines unless a series sets type; secondary_axis puts a column or line series on a second value axis (secondary_y_axis_title names it). Options: legend, axis titles, data labels, trendline, stacking, bar gap/overlap, line dash and markers. anchor is the top-left cell of the chart (default: right of the data). Values that are text or empty, categories of another length than their values, or an unknown sheet are refused and nothing changes. The receipt lists the chart as stored. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        type: z.enum(CHART_TYPES),
        data_range: A1Range.optional().describe('Header row + category column + series columns, e.g. A1:C13'),
        series: z.array(ChartSeriesInput).min(1).max(50).optional().describe('Instead of data_range'),
        title: z.string().optional(),
        anchor: A1Cell.optional(),
        ...chartOptionFields,
      }),
      output: SettingsReceipt,
      risk: 'write',
      examples: [
        { path: '/sales.xlsx', sheet: 'Data', type: 'column', data_range: 'A1:C13', title: 'Sales by month' },
        {
          path: '/sales.xlsx',
          sheet: 'Data',
          type: 'combo',
          title: 'Revenue and margin',
          series: [
            { name_ref: 'Data!B1', values: 'Data!B2:B13', categories: 'Data!A2:A13' },
            { name: 'Margin %', values: 'Data!D2:D13', type: 'line', secondary_axis: true },
          ],
          y_axis_title: 'EUR',
          secondary_y_axis_title: 'Margin',
          legend: 'top',
        },
      ],
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const area = args.data_range === undefined ? undefined : areaOnSheet(ws, args.data_range)
        return {
          sheet: ws.name,
          range: area ? areaName(area) : (args.series?.[0]?.values ?? 'A1'),
          applied: addChart(open, ws, {
            type: args.type,
            area,
            series: args.series,
            title: args.title,
            anchor: args.anchor,
            options: chartOptions(args),
          }),
        }
      },
    }),
    updateChart: method({
      description: `Changes a chart of the sheet, one added by add_chart or one already in the workbook: chart is its number in describe_worksheet's charts list (1 = first) or its title. Give only what changes: type, title ("" removes it), axis titles ("" removes), legend, data_labels, trendline ("none" removes), stacking, gaps, line style; series replaces all series, add_series appends, remove_series drops some (by number or name). Type and series changes rebuild the plot area (references, cached values and series colours kept); other parts of the chart stay as they were. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        chart: z.union([z.number().int().min(1), z.string().min(1)]).describe('1-based number or title'),
        type: z.enum(CHART_TYPES).optional(),
        title: z.string().optional(),
        series: z.array(ChartSeriesInput).min(1).max(50).optional().describe('Replaces every series'),
        add_series: z.array(ChartSeriesInput).min(1).max(50).optional(),
        remove_series: z
          .array(z.union([z.number().int().min(1), z.string().min(1)]))
          .min(1)
          .optional()
          .describe('1-based numbers or names of series to drop'),
        ...chartOptionFields,
        trendline: z
          .enum(['linear', 'moving_average', 'none'])
          .optional()
          .describe('On every series; none removes; not for pie, doughnut or stacked charts'),
      }),
      output: SettingsReceipt,
      risk: 'write',
      examples: [
        {
          path: '/sales.xlsx',
          sheet: 'Data',
          chart: 1,
          title: 'Sales 2024',
          legend: 'right',
          data_labels: 'value',
        },
        {
          path: '/sales.xlsx',
          sheet: 'Data',
          chart: 'Sales 2024',
          type: 'combo',
          add_series: [{ name: 'Target', values: 'Plan!C2:C13', type: 'line', secondary_axis: true }],
        },
      ],
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const change: ChartChange = { type: args.type, title: args.title, options: chartOptions(args) }
        if (args.series) change.series = resolveSeries(open, ws, args.series)
        if (args.add_series) change.addSeries = resolveSeries(open, ws, args.add_series)
        if (args.remove_series) change.removeSeries = args.remove_series
        const nothing =
          Object.values(change.options).every((v) => v === undefined) &&
          [change.type, change.title, change.series, change.addSeries, change.removeSeries].every(
            (v) => v === undefined,
          )
        if (nothing)
          throw invalidInput('nothing to change: give type, title, series, legend or another option')
        return { sheet: ws.name, range: 'A1', applied: updateChart(open, ws, args.chart, change) }
      },
    }),
    deleteChart: method({
      description: `Deletes a chart of the sheet, named by its number in describe_worksheet's charts list (1 = first) or by its title. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        chart: z.union([z.number().int().min(1), z.string().min(1)]).describe('1-based number or title'),
      }),
      output: SettingsReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        return { sheet: ws.name, range: 'A1', applied: [deleteChart(open, ws, args.chart)] }
      },
    }),
    addConditionalFormat: method({
      description: `Adds conditional formatting: rule cell_value highlights cells compared with value (operator, value, value2 for between), color_scale shades by value (colors: 2 or 3 hex colours, default red-yellow-green), formula highlights where formula (written for the top-left cell, e.g. $C2>100) is true, top_bottom the top (or bottom=true) rank values (percent=true: rank %), average values above (or below=true) the average, duplicates / unique repeated or single values, text_contains cells containing text, data_bar bars in color, icon_set icons (icon_set, default 3TrafficLights1). Highlights use fill_color / font_color (default light red fill). A value starting with = is a formula; one that cannot be written is refused and nothing changes. The receipt names the rule as stored; list_conditional_formats and delete_conditional_format manage rules. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        range: A1Range,
        rule: z.enum(['cell_value', 'color_scale', ...MORE_RULES]),
        operator: z
          .enum([
            'greater_than',
            'less_than',
            'between',
            'equal',
            'not_equal',
            'greater_or_equal',
            'less_or_equal',
          ])
          .optional(),
        value: z.union([z.number(), z.string()]).optional(),
        value2: z.union([z.number(), z.string()]).optional(),
        fill_color: Color.optional(),
        font_color: Color.optional(),
        colors: z.array(Color).optional(),
        formula: z.string().min(1).optional().describe('For rule formula, e.g. $C2>100'),
        rank: z.number().int().optional().describe('For top_bottom (default 10)'),
        percent: z.boolean().optional(),
        bottom: z.boolean().optional(),
        below: z.boolean().optional().describe('For average: below instead of above'),
        text: z.string().min(1).optional().describe('For text_contains'),
        color: Color.optional().describe('For data_bar'),
        icon_set: z.enum(ICON_SETS).optional(),
      }),
      output: SettingsReceipt,
      risk: 'write',
      examples: [
        {
          path: '/sales.xlsx',
          sheet: 'Data',
          range: 'C2:C20',
          rule: 'cell_value',
          operator: 'greater_than',
          value: 1000,
        },
      ],
      run: async ({ path, sheet, range, ...rule }, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, { path, sheet })
        const area = areaOnSheet(ws, range)
        const { rule: kind } = rule
        const applied =
          kind === 'cell_value' || kind === 'color_scale'
            ? addConditionalFormat(open, ws, area, { ...rule, rule: kind })
            : [addMoreRule(open, ws, area, { ...rule, rule: kind })]
        const stored = listRules(ws).at(-1)
        if (!stored || stored.range !== areaName(area)) throw new Error('the rule was not stored')
        applied.push(`stored as rule ${stored.index}: ${stored.description}`)
        return { sheet: ws.name, range: areaName(area), applied }
      },
    }),
    addDataValidation: method({
      description: `Restricts what can be typed: type list (values, or source range like Lists!A1:A5) or whole / decimal numbers between min and max. A source that is not a valid reference in this workbook is refused and nothing changes. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        range: A1Range,
        type: z.enum(['list', 'whole', 'decimal']),
        values: z.array(z.string()).optional(),
        source: z.string().optional(),
        min: z.number().optional(),
        max: z.number().optional(),
        allow_blank: z.boolean().default(true),
        error_message: z.string().optional(),
      }),
      output: SettingsReceipt,
      risk: 'write',
      examples: [
        { path: '/sales.xlsx', sheet: 'Data', range: 'D2:D50', type: 'list', values: ['Open', 'Closed'] },
      ],
      run: async ({ path, sheet, range, ...rule }, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, { path, sheet })
        const area = areaOnSheet(ws, range)
        return { sheet: ws.name, range: areaName(area), applied: addDataValidation(open, ws, area, rule) }
      },
    }),
  }
}
