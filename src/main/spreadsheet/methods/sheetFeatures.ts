import type { Worksheet } from 'exceljs'
import { type Area, areaName, columnLetters, parseArea, parseCell } from '../cells/address'
import { refuseLargeArea } from '../cells/areaLimits'
import { snapshot } from '../cells/cellValue'
import { displayText } from '../cells/displayValue'
import { describeChartXml } from '../charts/chartRead'
import {
  type ChartData,
  type ChartOptions,
  type ChartType,
  chartPartXml,
  chartProblem,
  chartRefs,
  defaultAnchorFor,
} from '../charts/chartXml'
import { resolveSeries, type SeriesInput } from '../charts/seriesInput'
import { invalidInput } from '../errors'
import { FormulaChecker } from '../formulas/checkFormula'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { highlightStyle } from './conditionalFormats'
import { argb } from './formatting'

export interface PageSetupInput {
  orientation?: 'portrait' | 'landscape'
  paper_size?: 'A4' | 'A3' | 'letter' | 'legal'
  fit_to_width?: number
  fit_to_height?: number
  print_area?: string
  repeat_header_rows?: string
  margins?: 'normal' | 'narrow' | 'wide'
}

const PAPER = { letter: 1, legal: 5, A3: 8, A4: 9 } as const
const MARGINS = {
  normal: { left: 0.7, right: 0.7, top: 0.75, bottom: 0.75, header: 0.3, footer: 0.3 },
  narrow: { left: 0.25, right: 0.25, top: 0.75, bottom: 0.75, header: 0.3, footer: 0.3 },
  wide: { left: 1, right: 1, top: 1, bottom: 1, header: 0.5, footer: 0.5 },
}

export function setPageSetup(open: OpenWorkbook, ws: Worksheet, input: PageSetupInput): string[] {
  const applied: string[] = []
  const setup = ws.pageSetup
  if (input.orientation) {
    setup.orientation = input.orientation
    applied.push(`orientation ${input.orientation}`)
  }
  if (input.paper_size) {
    setup.paperSize = PAPER[input.paper_size] as unknown as typeof setup.paperSize
    applied.push(`paper ${input.paper_size}`)
  }
  if (input.fit_to_width !== undefined || input.fit_to_height !== undefined) {
    setup.fitToPage = true
    setup.fitToWidth = input.fit_to_width ?? 1
    setup.fitToHeight = input.fit_to_height ?? 0
    applied.push(`fit to ${setup.fitToWidth} page(s) wide by ${setup.fitToHeight || 'any'} tall`)
  }
  if (input.print_area) {
    setup.printArea = input.print_area.replace(/\$/g, '')
    applied.push(`print area ${input.print_area}`)
  }
  if (input.repeat_header_rows) {
    setup.printTitlesRow = input.repeat_header_rows
    applied.push(`repeat rows ${input.repeat_header_rows}`)
  }
  if (input.margins) {
    setup.margins = MARGINS[input.margins]
    applied.push(`margins ${input.margins}`)
  }
  if (applied.length === 0)
    throw invalidInput(
      'no page setting given; set orientation, paper_size, fit_to_width, print_area, repeat_header_rows or margins',
    )
  open.changed(ws)
  return applied
}

export function addTable(
  open: OpenWorkbook,
  ws: Worksheet,
  area: Area,
  name: string | undefined,
  style: string,
): string {
  if (area.bottom <= area.top) throw invalidInput('a table needs a header row and at least one data row')
  refuseLargeArea(ws, area, 'add_table')
  const existing = new Set(
    open.workbook.worksheets
      .flatMap((w) => Object.keys((w as unknown as { tables: Record<string, unknown> }).tables ?? {}))
      .map((n) => n.toLowerCase()),
  )
  let tableName = name ?? 'Table1'
  if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(tableName))
    throw invalidInput(`table name "${tableName}" must start with a letter and use letters, digits, _ or .`)
  if (name && existing.has(tableName.toLowerCase()))
    throw invalidInput(`a table named "${tableName}" already exists`)
  for (let n = 2; existing.has(tableName.toLowerCase()); n++) tableName = `Table${n}`
  const headers: string[] = []
  for (let c = area.left; c <= area.right; c++) {
    const text =
      displayText(snapshot(ws.findCell(area.top, c), open.date1904)) || `Column${c - area.left + 1}`
    let unique = text
    for (let k = 2; headers.includes(unique); k++) unique = `${text}${k}`
    headers.push(unique)
  }
  const rows: unknown[][] = []
  for (let r = area.top + 1; r <= area.bottom; r++) {
    const line: unknown[] = []
    for (let c = area.left; c <= area.right; c++) line.push(ws.findCell(r, c)?.value ?? null)
    rows.push(line)
  }
  ws.addTable({
    name: tableName,
    ref: areaName({ ...area, bottom: area.top, right: area.left }),
    headerRow: true,
    style: { theme: style as 'TableStyleMedium2', showRowStripes: true },
    columns: headers.map((h) => ({ name: h, filterButton: true })),
    rows: rows as never[],
  })
  open.changed(ws, area)
  return tableName
}

export interface ConditionalFormatInput {
  rule: 'cell_value' | 'color_scale'
  operator?:
    | 'greater_than'
    | 'less_than'
    | 'between'
    | 'equal'
    | 'not_equal'
    | 'greater_or_equal'
    | 'less_or_equal'
  value?: number | string
  value2?: number | string
  fill_color?: string
  font_color?: string
  colors?: string[]
}

const OPERATORS = {
  greater_than: 'greaterThan',
  less_than: 'lessThan',
  between: 'between',
  equal: 'equal',
  not_equal: 'notEqual',
  greater_or_equal: 'greaterThanOrEqual',
  less_or_equal: 'lessThanOrEqual',
} as const

function formulaOf(value: number | string): string {
  if (typeof value === 'number') return String(value)
  if (value.startsWith('=')) return value.slice(1)
  if (/^-?\d+(\.\d+)?$/.test(value)) return value
  return `"${value.replace(/"/g, '""')}"`
}

export function addConditionalFormat(
  open: OpenWorkbook,
  ws: Worksheet,
  area: Area,
  input: ConditionalFormatInput,
): string[] {
  const ref = areaName(area)
  if (input.rule === 'color_scale') {
    const colors = (
      input.colors && input.colors.length >= 2 ? input.colors : ['#F8696B', '#FFEB84', '#63BE7B']
    ).slice(0, 3)
    const cfvo =
      colors.length === 2
        ? [{ type: 'min' }, { type: 'max' }]
        : [{ type: 'min' }, { type: 'percentile', value: 50 }, { type: 'max' }]
    ws.addConditionalFormatting({
      ref,
      rules: [
        { type: 'colorScale', priority: 1, cfvo, color: colors.map((c) => ({ argb: argb(c) })) } as never,
      ],
    })
    open.changed(ws)
    return [`colour scale ${colors.join(' -> ')}`]
  }
  if (!input.operator || input.value === undefined)
    throw invalidInput('a cell_value rule needs operator and value (and value2 for between)')
  if (input.operator === 'between' && input.value2 === undefined)
    throw invalidInput('operator between needs value2')
  const given = { value: input.value, ...(input.operator === 'between' ? { value2: input.value2! } : {}) }
  const typed = Object.entries(given).flatMap(([label, value]) =>
    typeof value === 'string' && value.startsWith('=')
      ? [{ formula: value.slice(1), sheet: ws.name, label }]
      : [],
  )
  new FormulaChecker(open.sheetNames()).checkAll(typed, 'formula')
  const formulae = Object.values(given).map(formulaOf)
  const { style, label } = highlightStyle(input.fill_color, input.font_color)
  ws.addConditionalFormatting({
    ref,
    rules: [{ type: 'cellIs', operator: OPERATORS[input.operator], formulae, priority: 1, style } as never],
  })
  open.changed(ws)
  return [`highlight cells ${input.operator.replace(/_/g, ' ')} ${formulae.join(' and ')}${label}`]
}

export interface DataValidationInput {
  type: 'list' | 'whole' | 'decimal'
  values?: string[]
  source?: string
  min?: number
  max?: number
  allow_blank?: boolean
  error_message?: string
}

export function addDataValidation(
  open: OpenWorkbook,
  ws: Worksheet,
  area: Area,
  input: DataValidationInput,
): string[] {
  refuseLargeArea(ws, area, 'add_data_validation')
  let rule: Record<string, unknown>
  let described: string
  if (input.type === 'list') {
    if (input.values && input.values.length > 0) {
      const joined = input.values.join(',')
      if (joined.length > 255)
        throw invalidInput(
          'list values are longer than 255 characters; put them in cells and pass source instead',
        )
      rule = { type: 'list', formulae: [`"${joined.replace(/"/g, '""')}"`] }
      described = `list ${input.values.join(', ')}`
    } else if (input.source) {
      const source = input.source.trim().replace(/^=/, '')
      new FormulaChecker(open.sheetNames()).check(source, { sheet: ws.name, label: 'source' }, 'formula')
      rule = { type: 'list', formulae: [source] }
      described = `list from ${input.source}`
    } else throw invalidInput('a list validation needs values (["Yes","No"]) or source ("Lists!A1:A5")')
  } else {
    if (input.min === undefined && input.max === undefined)
      throw invalidInput(`a ${input.type} validation needs min and/or max`)
    const operator =
      input.min !== undefined && input.max !== undefined
        ? 'between'
        : input.min !== undefined
          ? 'greaterThanOrEqual'
          : 'lessThanOrEqual'
    const formulae = [input.min, input.max].filter((v) => v !== undefined)
    rule = { type: input.type, operator, formulae }
    described = `${input.type} ${operator === 'between' ? `between ${input.min} and ${input.max}` : operator === 'greaterThanOrEqual' ? `>= ${input.min}` : `<= ${input.max}`}`
  }
  const validation = {
    ...rule,
    allowBlank: input.allow_blank ?? true,
    showErrorMessage: true,
    errorStyle: 'stop',
    error: input.error_message ?? 'The value is not allowed here.',
  }
  for (let r = area.top; r <= area.bottom; r++)
    for (let c = area.left; c <= area.right; c++) ws.getCell(r, c).dataValidation = validation as never
  open.changed(ws)
  return [described]
}

export interface ChartRequest {
  type: ChartType
  /** Header row + category column + series columns; or `series`. */
  area?: Area
  series?: SeriesInput[]
  title?: string
  anchor?: string
  options?: ChartOptions
}

/** The series of a `data_range`: header row = names, first column = categories, other columns = values. */
function rangeData(open: OpenWorkbook, ws: Worksheet, area: Area): ChartData {
  if (area.right <= area.left || area.bottom <= area.top)
    throw invalidInput(
      'data_range needs a header row, a category column and at least one series column, e.g. A1:C6',
    )
  refuseLargeArea(ws, area, 'add_chart')
  const refs = chartRefs(ws.name, area)
  const text = (r: number, c: number) => displayText(snapshot(ws.findCell(r, c), open.date1904))
  const num = (r: number, c: number): number | null => {
    const s = snapshot(ws.findCell(r, c), open.date1904)
    return s.kind === 'number' || s.kind === 'date' ? (s.value as number) : null
  }
  open.calc()
  const categories: string[] = []
  const categoryNumbers: (number | null)[] = []
  for (let r = area.top + 1; r <= area.bottom; r++) {
    categories.push(text(r, area.left))
    categoryNumbers.push(num(r, area.left))
  }
  const series = refs.series.map((s, i) => {
    const col = area.left + 1 + i
    const values: (number | null)[] = []
    for (let r = area.top + 1; r <= area.bottom; r++) values.push(num(r, col))
    return { name: text(area.top, col) || `Series ${i + 1}`, nameRef: s.name, valuesRef: s.values, values }
  })
  if (series.every((s) => s.values.every((v) => v === null)))
    throw invalidInput(`data_range ${areaName(area)} has no numbers in its series columns`)
  return { categoriesRef: refs.categories, categories, categoryNumbers, series }
}

export function addChart(open: OpenWorkbook, ws: Worksheet, req: ChartRequest): string[] {
  if ((req.area === undefined) === (req.series === undefined))
    throw invalidInput(
      'give either data_range ("A1:C13") or series ([{values: "Data!B2:B13", ...}]), not both',
    )
  const data = req.area
    ? rangeData(open, ws, req.area)
    : { categories: [], categoryNumbers: [], series: resolveSeries(open, ws, req.series!) }
  const options = req.options ?? {}
  const problem = chartProblem(req.type, data, options)
  if (problem) throw invalidInput(problem)
  const first = req.area ?? firstArea(data)
  const anchor = defaultAnchorFor(first)
  if (req.anchor) {
    const at = parseCell(req.anchor)
    anchor.col = at.col - 1
    anchor.row = at.row - 1
  }
  const xml = chartPartXml(req.type, data, req.title, options)
  open.charts.push({
    sheet: ws.name,
    type: req.type,
    title: req.title,
    anchor,
    xml,
    rewritesBefore: open.rewrites.length,
    movesBefore: open.moves.get(ws.id)?.length ?? 0,
  })
  open.changed(ws)
  return [...describeChartXml(xml), `anchored at ${columnLetters(anchor.col + 1)}${anchor.row + 1}`]
}

/** Where a chart made from a series list goes by default: right of its first values. */
function firstArea(data: ChartData): Area {
  const ref = data.series[0]?.valuesRef ?? 'A1'
  return parseArea(ref.replace(/^.*!/, '').replace(/\$/g, ''))
}
