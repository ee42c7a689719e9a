import type { Worksheet } from 'exceljs'
import { z } from 'zod'
import { type Area, cellName, columnLetters, columnNumber } from '../cells/address'
import { type CellSnapshot, snapshot } from '../cells/cellValue'
import { displayText } from '../cells/displayValue'
import { invalidInput } from '../errors'
import { escapeXml } from '../ooxml/packageParts'

const OPERATORS = [
  'equal',
  'not_equal',
  'greater_than',
  'greater_or_equal',
  'less_than',
  'less_or_equal',
  'contains',
  'not_contains',
  'begins_with',
  'ends_with',
] as const
type Operator = (typeof OPERATORS)[number]

export const FilterCriterion = z
  .object({
    column: z.string().min(1).describe('Column letter (e.g. C) or the header text of the column'),
    values: z
      .array(z.union([z.string(), z.number(), z.boolean()]))
      .min(1)
      .optional()
      .describe('Keep rows whose cell shows one of these (display text, any case; "" keeps blank cells)'),
    operator: z.enum(OPERATORS).optional().describe('Compare each cell with value'),
    value: z.union([z.string(), z.number()]).optional().describe('What operator compares with'),
    top: z
      .object({
        count: z.number().positive().max(500),
        percent: z.boolean().default(false).describe('count is a percentage of the rows'),
        bottom: z.boolean().default(false).describe('The smallest instead of the largest'),
      })
      .optional()
      .describe('Keep the largest (or smallest) count numbers'),
  })
  .describe('One column condition: values, or operator with value, or top')
export type FilterCriterion = z.infer<typeof FilterCriterion>

/** A criterion resolved against the sheet: its column, a row test and its `filterColumn` XML. */
export interface ColumnFilter {
  col: number
  header: string
  label: string
  matches(cell: CellSnapshot): boolean
  xml: string
}

function headerText(ws: Worksheet, row: number, col: number, date1904: boolean): string {
  return displayText(snapshot(ws.findCell(row, col), date1904)).trim()
}

/** Refuses a range whose first row is not a header: every column needs a text heading. */
export function checkHeader(ws: Worksheet, area: Area, date1904: boolean): string[] {
  if (area.bottom <= area.top)
    throw invalidInput(
      `range ${cellName(area.top, area.left)}:${cellName(area.bottom, area.right)} needs a header row and at least one row of data`,
    )
  const headers: string[] = []
  for (let c = area.left; c <= area.right; c++) {
    const cell = snapshot(ws.findCell(area.top, c), date1904)
    if (cell.kind !== 'text' || String(cell.value).trim() === '')
      throw invalidInput(
        `the range has no header row: ${cellName(area.top, c)} ${cell.kind === 'empty' ? 'is empty' : `holds ${cell.kind} ${displayText(cell)}`}; a filter's range starts with a row of column headings (text)`,
      )
    headers.push(headerText(ws, area.top, c, date1904))
  }
  return headers
}

function resolveColumn(column: string, area: Area, headers: string[]): number {
  const wanted = column.trim().toLowerCase()
  const byHeader = headers.findIndex((h) => h.toLowerCase() === wanted)
  if (byHeader >= 0) return area.left + byHeader
  if (/^[a-z]{1,3}$/.test(wanted)) {
    const col = columnNumber(wanted.toUpperCase())
    if (col >= area.left && col <= area.right) return col
  }
  throw invalidInput(
    `column "${column}" is neither a header nor a column letter of the range (${columnLetters(area.left)} to ${columnLetters(area.right)}; headers: ${headers.join(', ')})`,
  )
}

function numberOf(value: string | number): number | undefined {
  if (typeof value === 'number') return value
  const trimmed = value.trim()
  if (trimmed === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(trimmed)) return undefined
  return Number(trimmed)
}

function isNumeric(cell: CellSnapshot): boolean {
  return cell.kind === 'number' || cell.kind === 'date'
}

const COMPARE: Record<string, [string, (a: number, b: number) => boolean]> = {
  greater_than: ['greaterThan', (a, b) => a > b],
  greater_or_equal: ['greaterThanOrEqual', (a, b) => a >= b],
  less_than: ['lessThan', (a, b) => a < b],
  less_or_equal: ['lessThanOrEqual', (a, b) => a <= b],
}

const PATTERN: Record<
  string,
  [string | undefined, (text: string) => string, (shown: string, v: string) => boolean]
> = {
  contains: [undefined, (v) => `*${v}*`, (s, v) => s.includes(v)],
  not_contains: ['notEqual', (v) => `*${v}*`, (s, v) => !s.includes(v)],
  begins_with: [undefined, (v) => `${v}*`, (s, v) => s.startsWith(v)],
  ends_with: [undefined, (v) => `*${v}`, (s, v) => s.endsWith(v)],
}

function customFilter(operator: string | undefined, val: string): string {
  const op = operator ? ` operator="${operator}"` : ''
  return `<customFilters><customFilter${op} val="${escapeXml(val)}"/></customFilters>`
}

/** The row test and XML of an operator criterion. */
function operatorFilter(
  operator: Operator,
  value: string | number,
): Pick<ColumnFilter, 'matches' | 'xml' | 'label'> {
  const text = String(value)
  const lower = text.toLowerCase()
  const number = numberOf(value)
  const compare = COMPARE[operator]
  if (compare) {
    if (number === undefined)
      throw invalidInput(`operator ${operator} compares numbers: value "${text}" is not one`)
    return {
      matches: (cell) => isNumeric(cell) && compare[1](cell.value as number, number),
      xml: customFilter(compare[0], String(number)),
      label: `${operator.replace(/_/g, ' ')} ${number}`,
    }
  }
  const pattern = PATTERN[operator]
  if (pattern) {
    if (text === '') throw invalidInput(`operator ${operator} needs a non-empty value`)
    return {
      matches: (cell) => pattern[2](displayText(cell).toLowerCase(), lower),
      xml: customFilter(pattern[0], pattern[1](text)),
      label: `${operator.replace(/_/g, ' ')} "${text}"`,
    }
  }
  const equal = (cell: CellSnapshot) =>
    number !== undefined && isNumeric(cell)
      ? cell.value === number
      : displayText(cell).toLowerCase() === lower
  const not = operator === 'not_equal'
  return {
    matches: not ? (cell) => !equal(cell) : equal,
    xml: customFilter(not ? 'notEqual' : undefined, number !== undefined ? String(number) : text),
    label: `${not ? 'not equal' : 'equal'} ${JSON.stringify(value)}`,
  }
}

function valuesFilter(
  values: (string | number | boolean)[],
): Pick<ColumnFilter, 'matches' | 'xml' | 'label'> {
  const shown = values.map((v) => (typeof v === 'boolean' ? (v ? 'TRUE' : 'FALSE') : String(v)))
  const wanted = new Set(shown.map((v) => v.trim().toLowerCase()))
  const numbers = new Set(values.filter((v): v is number => typeof v === 'number'))
  const blank = wanted.has('')
  const items = shown.filter((v) => v.trim() !== '').map((v) => `<filter val="${escapeXml(v)}"/>`)
  return {
    matches: (cell) =>
      (isNumeric(cell) && numbers.has(cell.value as number)) ||
      wanted.has(displayText(cell).trim().toLowerCase()),
    xml: `<filters${blank ? ' blank="1"' : ''}>${items.join('')}</filters>`,
    label: `one of ${shown.map((v) => JSON.stringify(v)).join(', ')}`,
  }
}

function topFilter(
  top: NonNullable<FilterCriterion['top']>,
  column: CellSnapshot[],
): Pick<ColumnFilter, 'matches' | 'xml' | 'label'> {
  const numbers = column.filter(isNumeric).map((c) => c.value as number)
  if (numbers.length === 0) throw invalidInput('top keeps the largest numbers, but the column holds none')
  numbers.sort((a, b) => (top.bottom ? a - b : b - a))
  if (top.percent && top.count > 100) throw invalidInput('top.count is a percentage: at most 100')
  const kept = top.percent
    ? Math.max(1, Math.floor((numbers.length * top.count) / 100))
    : Math.min(numbers.length, Math.floor(top.count))
  if (kept < 1) throw invalidInput('top.count keeps no row: give at least 1')
  const threshold = numbers[kept - 1]!
  const side = top.bottom ? 'bottom' : 'top'
  return {
    matches: (cell) =>
      isNumeric(cell) &&
      (top.bottom ? (cell.value as number) <= threshold : (cell.value as number) >= threshold),
    xml: `<top10${top.bottom ? ' top="0"' : ''}${top.percent ? ' percent="1"' : ''} val="${top.count}" filterVal="${threshold}"/>`,
    label: `${side} ${top.count}${top.percent ? ' %' : ''}`,
  }
}

/** Resolves criteria against the range (first row: headers); refuses what cannot be applied. */
export function resolveCriteria(
  ws: Worksheet,
  area: Area,
  criteria: FilterCriterion[],
  date1904: boolean,
): ColumnFilter[] {
  const headers = checkHeader(ws, area, date1904)
  const seen = new Set<number>()
  return criteria.map((criterion) => {
    const col = resolveColumn(criterion.column, area, headers)
    if (seen.has(col))
      throw invalidInput(`column ${columnLetters(col)} has two criteria: give one per column`)
    seen.add(col)
    const kinds = [criterion.values, criterion.operator, criterion.top].filter((k) => k !== undefined).length
    if (kinds !== 1)
      throw invalidInput(
        `the criterion on column "${criterion.column}" needs exactly one of values, operator (with value) or top`,
      )
    let rule: Pick<ColumnFilter, 'matches' | 'xml' | 'label'>
    if (criterion.values) rule = valuesFilter(criterion.values)
    else if (criterion.operator) {
      if (criterion.value === undefined) throw invalidInput(`operator ${criterion.operator} needs a value`)
      rule = operatorFilter(criterion.operator, criterion.value)
    } else {
      const cells: CellSnapshot[] = []
      for (let r = area.top + 1; r <= area.bottom; r++) cells.push(snapshot(ws.findCell(r, col), date1904))
      rule = topFilter(criterion.top!, cells)
    }
    const header = headers[col - area.left]!
    return {
      col,
      header,
      label: rule.label,
      matches: rule.matches,
      xml: `<filterColumn colId="${col - area.left}">${rule.xml}</filterColumn>`,
    }
  })
}
