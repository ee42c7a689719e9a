import type { Worksheet } from 'exceljs'
import { type Area, areaName, parseArea } from '../cells/address'
import { refuseLargeArea } from '../cells/areaLimits'
import { snapshot } from '../cells/cellValue'
import { displayText } from '../cells/displayValue'
import { invalidInput } from '../errors'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { type ChartSeries, chartRef, type PlotKind } from './chartXml'

/** One series as a tool call gives it: its own ranges, possibly on other sheets. */
export interface SeriesInput {
  name?: string
  name_ref?: string
  values: string
  categories?: string
  type?: 'column' | 'line' | 'area'
  secondary_axis?: boolean
}

interface SheetArea {
  ws: Worksheet
  area: Area
}

/** `Sheet!B2:B13`, `'My sheet'!B2:B13` or `B2:B13` (on the chart's sheet). */
function sheetArea(open: OpenWorkbook, home: Worksheet, text: string, label: string): SheetArea {
  const match = /^\s*=?\s*(?:'((?:[^']|'')+)'|([^'!]+))!(.+)$/.exec(text)
  const sheetName = match ? (match[1]?.replace(/''/g, "'") ?? match[2]!.trim()) : undefined
  const ws =
    sheetName === undefined
      ? home
      : open.workbook.worksheets.find((w) => w.name.toLowerCase() === sheetName.toLowerCase())
  if (!ws)
    throw invalidInput(
      `${label}: sheet "${sheetName}" does not exist; sheets: ${open.sheetNames().join(', ')}`,
    )
  const area = parseArea((match ? match[3]! : text).replace(/\$/g, ''))
  return { ws, area }
}

function cells({ area }: SheetArea): { row: number; col: number }[] {
  const out: { row: number; col: number }[] = []
  for (let row = area.top; row <= area.bottom; row++)
    for (let col = area.left; col <= area.right; col++) out.push({ row, col })
  return out
}

function line(at: SheetArea, label: string): SheetArea {
  if (at.area.top !== at.area.bottom && at.area.left !== at.area.right)
    throw invalidInput(`${label} ${areaName(at.area)} must be one row or one column`)
  refuseLargeArea(at.ws, at.area, 'a chart series')
  return at
}

/**
 * Reads the series of an add_chart / update_chart call from the workbook: names, values and categories
 * with their references. Refuses (before anything changes) a range on an unknown sheet, values without a
 * number, and categories whose length differs from the values'.
 */
export function resolveSeries(open: OpenWorkbook, home: Worksheet, inputs: SeriesInput[]): ChartSeries[] {
  if (inputs.length === 0) throw invalidInput('series needs at least one entry: [{values: "Sheet1!B2:B13"}]')
  open.calc()
  const snap = (ws: Worksheet, row: number, col: number) => snapshot(ws.findCell(row, col), open.date1904)
  return inputs.map((input, i) => {
    const label = `series ${i + 1}`
    const values = line(sheetArea(open, home, input.values, `${label} values`), `${label} values`)
    const numbers = cells(values).map(({ row, col }) => {
      const s = snap(values.ws, row, col)
      return s.kind === 'number' || s.kind === 'date' ? (s.value as number) : null
    })
    if (numbers.every((v) => v === null))
      throw invalidInput(
        `${label} values ${input.values} hold no numbers (${cells(values).every(({ row, col }) => snap(values.ws, row, col).kind === 'empty') ? 'the range is empty' : 'text only'}); give a range of numbers`,
      )
    const out: ChartSeries = {
      name: input.name ?? `Series ${i + 1}`,
      valuesRef: chartRef(values.ws.name, values.area),
      values: numbers,
    }
    if (input.name_ref) {
      const at = sheetArea(open, home, input.name_ref, `${label} name_ref`)
      if (at.area.top !== at.area.bottom || at.area.left !== at.area.right)
        throw invalidInput(`${label} name_ref ${input.name_ref} must be one cell`)
      out.nameRef = chartRef(at.ws.name, at.area)
      out.name = input.name ?? (displayText(snap(at.ws, at.area.top, at.area.left)) || `Series ${i + 1}`)
    }
    if (input.categories) {
      const cats = line(sheetArea(open, home, input.categories, `${label} categories`), `${label} categories`)
      const list = cells(cats)
      if (list.length !== numbers.length)
        throw invalidInput(
          `${label}: categories ${input.categories} have ${list.length} cells but values ${input.values} have ${numbers.length}; give ranges of the same length`,
        )
      out.categoriesRef = chartRef(cats.ws.name, cats.area)
      out.categories = list.map(({ row, col }) => displayText(snap(cats.ws, row, col)))
      out.categoryNumbers = list.map(({ row, col }) => {
        const s = snap(cats.ws, row, col)
        return s.kind === 'number' || s.kind === 'date' ? (s.value as number) : null
      })
    }
    if (input.type) out.type = input.type as PlotKind
    if (input.secondary_axis) out.secondary = true
    return out
  })
}
