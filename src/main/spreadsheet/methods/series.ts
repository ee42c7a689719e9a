import type { Cell, Worksheet } from 'exceljs'
import { parseDate, parseNumber } from 'numfmt'
import { z } from 'zod'
import { method } from '../../tools'
import { type Area, areaName, cellName } from '../cells/address'
import { refuseLargeArea } from '../cells/areaLimits'
import { restyle } from '../cells/cellStyle'
import { DAYS_1900_TO_1904, isGeneralFormat, snapshot } from '../cells/cellValue'
import { displayText } from '../cells/displayValue'
import { eachExistingCell } from '../cells/sheetCells'
import { isTextFormat } from '../cells/writeCell'
import { invalidInput } from '../errors'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { AREA_RECEIPT_DOC, AreaReceipt } from '../workbook/receipt'
import { writeReceipt } from '../workbook/writeReceipt'
import { A1Range, AgentPath, SheetName, type WorkbooksHandle } from './schemas'
import { areaOnSheet, filledReceipt, openSheet } from './sheetTarget'

type SeriesType = 'linear' | 'growth' | 'date'
type DateUnit = 'day' | 'weekday' | 'month' | 'year'

const MS_PER_DAY = 86_400_000
/** 1899-12-30, day 0 of the 1900 date system for every serial after 1900-02-28. */
const EPOCH_1900 = Date.UTC(1899, 11, 30)

function serialToDate(serial: number, date1904: boolean): Date {
  return new Date(EPOCH_1900 + (serial + (date1904 ? DAYS_1900_TO_1904 : 0)) * MS_PER_DAY)
}

function dateToSerial(date: Date, date1904: boolean): number {
  return (date.getTime() - EPOCH_1900) / MS_PER_DAY - (date1904 ? DAYS_1900_TO_1904 : 0)
}

/** `date` moved by whole months, the day kept or cut to the month's last day (as EDATE does). */
function addMonths(date: Date, months: number): Date {
  const y = date.getUTCFullYear()
  const m = date.getUTCMonth() + months
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
  const out = new Date(date.getTime())
  out.setUTCFullYear(y, m, Math.min(date.getUTCDate(), last))
  return out
}

function isWeekend(date: Date): boolean {
  const day = date.getUTCDay()
  return day === 0 || day === 6
}

/** The value `steps` steps after `start`. */
function nextValue(
  start: number,
  previous: number,
  steps: number,
  type: SeriesType,
  step: number,
  unit: DateUnit,
  date1904: boolean,
): number {
  if (type === 'linear') return start + steps * step
  if (type === 'growth') return start * step ** steps
  const from = serialToDate(start, date1904)
  if (unit === 'day') return start + steps * step
  if (unit === 'month') return dateToSerial(addMonths(from, steps * step), date1904)
  if (unit === 'year') return dateToSerial(addMonths(from, steps * step * 12), date1904)
  // Weekdays: `step` working days after the previous value.
  let date = serialToDate(previous, date1904)
  let left = Math.abs(step)
  const dir = Math.sign(step)
  while (left > 0) {
    date = new Date(date.getTime() + dir * MS_PER_DAY)
    if (!isWeekend(date)) left--
  }
  return dateToSerial(date, date1904)
}

function fillSeries(
  open: OpenWorkbook,
  ws: Worksheet,
  area: Area,
  options: { type: SeriesType; step: number; unit: DateUnit; stop?: number; down: boolean },
): { area: Area; count: number } {
  const { down } = options
  if (down ? area.top === area.bottom : area.left === area.right)
    throw invalidInput(
      `range ${areaName(area)} has one ${down ? 'row' : 'column'}: give the start cell and the cells to fill`,
    )
  if (options.type === 'growth' && options.step === 0)
    throw invalidInput('a growth series needs a step other than 0')
  if (options.step === 0 && options.type === 'date')
    throw invalidInput('a date series needs a step other than 0')
  refuseLargeArea(ws, area, 'fill_series')
  // Every start cell is checked before any cell changes.
  const lines = down ? area.right - area.left + 1 : area.bottom - area.top + 1
  const starts: { cell: Cell; value: number; style: Cell['style'] }[] = []
  for (let i = 0; i < lines; i++) {
    const row = down ? area.top : area.top + i
    const col = down ? area.left + i : area.left
    const cell = ws.getCell(row, col)
    const shot = snapshot(cell, open.date1904)
    if (shot.formula !== undefined || (shot.kind !== 'number' && shot.kind !== 'date'))
      throw invalidInput(
        `${cellName(row, col)} starts the series but holds ${shot.formula ? 'a formula' : shot.kind === 'empty' ? 'nothing' : `${shot.kind} "${displayText(shot)}"`}: put the first number or date there`,
      )
    if (options.type === 'date' && shot.kind !== 'date' && isGeneralFormat(shot.numFmt))
      throw invalidInput(`${cellName(row, col)} holds a number, not a date: a date series starts from a date`)
    starts.push({ cell, value: shot.value as number, style: JSON.parse(JSON.stringify(cell.style ?? {})) })
  }
  const length = down ? area.bottom - area.top : area.right - area.left
  let count = 0
  starts.forEach((start, i) => {
    let previous = start.value
    for (let k = 1; k <= length; k++) {
      const value = nextValue(
        start.value,
        previous,
        k,
        options.type,
        options.step,
        options.unit,
        open.date1904,
      )
      if (!Number.isFinite(value))
        throw invalidInput(`the series leaves the numbers a cell can hold after ${k} steps`)
      if (options.stop !== undefined && (options.step >= 0 ? value > options.stop : value < options.stop))
        break
      const cell = down ? ws.getCell(area.top + k, area.left + i) : ws.getCell(area.top + i, area.left + k)
      cell.value = value
      cell.style = start.style
      previous = value
      count++
    }
  })
  open.changed(ws, area, true)
  return { area, count }
}

const ConvertReceipt = AreaReceipt.extend({
  converted: z.number().int().describe('Cells whose type changed'),
  kept: z
    .array(z.object({ cell: z.string(), value: z.string(), why: z.string() }))
    .describe('Cells left as they were (first 50), with why'),
})

type Target = 'number' | 'date' | 'text'

/** The value and format `text` converts to, or why it stays. */
function convertText(text: string, to: Target): { value: number; format?: string } | string {
  const trimmed = text.trim()
  if (trimmed === '') return 'blank text'
  if (to === 'number') {
    const parsed = parseNumber(trimmed) as { v?: unknown; z?: string } | null
    if (parsed && typeof parsed.v === 'number') return { value: parsed.v, format: parsed.z }
    return 'does not read as a number'
  }
  const parsed = parseDate(trimmed) as { v?: unknown; z?: string } | null
  if (parsed && typeof parsed.v === 'number') return { value: parsed.v, format: parsed.z ?? 'yyyy-mm-dd' }
  return 'does not read as a date'
}

function convertTypes(
  open: OpenWorkbook,
  ws: Worksheet,
  area: Area,
  to: Target,
): { converted: number; kept: { cell: string; value: string; why: string }[]; box?: Area } {
  refuseLargeArea(ws, area, 'convert_types')
  const plan: { r: number; c: number; apply: () => void }[] = []
  const kept: { cell: string; value: string; why: string }[] = []
  eachExistingCell(ws, area, (cell, r, c) => {
    const shot = snapshot(cell, open.date1904)
    if (shot.kind === 'empty') return
    const name = cellName(r, c)
    const shown = displayText(shot)
    if (shot.formula !== undefined) {
      kept.push({ cell: name, value: shown, why: 'a formula' })
      return
    }
    if (to === 'text') {
      if (shot.kind === 'text') return
      plan.push({
        r,
        c,
        apply: () => {
          cell.value = shown
          restyle(cell, (style) => ({ ...style, numFmt: '@' }))
        },
      })
      return
    }
    if (shot.kind !== 'text') {
      const already = to === 'number' ? shot.kind === 'number' : shot.kind === 'date'
      if (!already) kept.push({ cell: name, value: shown, why: `a ${shot.kind}` })
      return
    }
    const result = convertText(String(shot.value), to)
    if (typeof result === 'string') {
      kept.push({ cell: name, value: shown, why: result })
      return
    }
    const date1904 = open.date1904 && to === 'date'
    plan.push({
      r,
      c,
      apply: () => {
        cell.value = date1904 ? result.value - DAYS_1900_TO_1904 : result.value
        const numFmt = cell.numFmt
        if (isGeneralFormat(numFmt) || isTextFormat(numFmt) || to === 'date')
          restyle(cell, (style) => ({ ...style, numFmt: result.format ?? 'General' }))
      },
    })
  })
  let box: Area | undefined
  for (const { r, c, apply } of plan) {
    apply()
    box = box
      ? {
          top: Math.min(box.top, r),
          left: Math.min(box.left, c),
          bottom: Math.max(box.bottom, r),
          right: Math.max(box.right, c),
        }
      : { top: r, left: c, bottom: r, right: c }
  }
  if (box) open.changed(ws, box, true)
  return { converted: plan.length, kept, box }
}

export function seriesMethods(workbooks: WorkbooksHandle) {
  return {
    fillSeries: method({
      description: `Fills a range from its first cell (or the first cell of each column or row) with a series, as a spreadsheet's Fill Series: linear adds step, growth multiplies by step, date adds step days, weekdays (Monday to Friday), months (the day cut to the month's end, as EDATE) or years. stop ends the series early (cells past it stay as they were). The start cells keep their format and the series takes it. ${AREA_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        range: A1Range.describe('The start cell(s) and the cells to fill, e.g. A2:A13'),
        type: z.enum(['linear', 'growth', 'date']).default('linear'),
        step: z.number().finite().default(1),
        date_unit: z.enum(['day', 'weekday', 'month', 'year']).default('day').describe('For type date'),
        stop: z.number().finite().optional().describe('Last value allowed (a date as its serial number)'),
        direction: z
          .enum(['down', 'right'])
          .optional()
          .describe('Down the columns or right along the rows (default: along the longer side)'),
      }),
      output: AreaReceipt,
      risk: 'write',
      examples: [
        { path: '/plan.xlsx', sheet: 'Data', range: 'A2:A13', type: 'date', date_unit: 'month' },
        { path: '/plan.xlsx', sheet: 'Data', range: 'B2:M2', type: 'growth', step: 1.05 },
      ],
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const area = areaOnSheet(ws, args.range)
        const down = args.direction
          ? args.direction === 'down'
          : area.bottom - area.top >= area.right - area.left
        const options = { type: args.type, step: args.step, unit: args.date_unit, stop: args.stop, down }
        const filled = fillSeries(open, ws, area, options)
        return filledReceipt(open, ws, filled.area)
      },
    }),
    convertTypes: method({
      description: `Converts the cells of a range to numbers, dates or text: to number, text such as "1,200", "$5" or "12%" becomes a number (with the matching format); to date, text such as "2024-03-01" or "1 March 2024" becomes a date; to text, numbers and dates become the text they show (text format @). Formulas and cells that do not read as the type stay as they were and are listed in kept with why. Returns the area receipt with converted and kept.`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        range: A1Range,
        to: z.enum(['number', 'date', 'text']),
      }),
      output: ConvertReceipt,
      risk: 'write',
      examples: [{ path: '/import.xlsx', sheet: 'Data', range: 'C2:C500', to: 'number' }],
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const area = areaOnSheet(ws, args.range)
        const { converted, kept, box } = convertTypes(open, ws, area, args.to)
        const receipt = writeReceipt(open, ws, { area, focus: box, changed: converted })
        return { ...receipt, converted, kept: kept.slice(0, 50) }
      },
    }),
  }
}
