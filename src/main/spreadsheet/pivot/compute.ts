import { invalidInput } from '../errors'
import type {
  FieldItems,
  OutValue,
  PivotColumn,
  PivotResult,
  PivotSource,
  PivotSpec,
  PivotValue,
  Summary,
} from './model'

export type { OutValue, PivotRequest, PivotResult, Summary } from './model'
export { SUMMARIES } from './model'

const RANK: Record<PivotValue['k'], number> = { n: 0, d: 0, s: 1, b: 2, e: 3, m: 4 }

export function itemKey(v: PivotValue): string {
  switch (v.k) {
    case 'm':
      return 'm'
    case 's':
      return `s${v.v.toLowerCase()}`
    default:
      return `${v.k}${String(v.v)}`
  }
}

function compareItems(a: PivotValue, b: PivotValue): number {
  const ra = RANK[a.k]
  const rb = RANK[b.k]
  if (ra !== rb) return ra - rb
  if ((a.k === 'n' || a.k === 'd') && (b.k === 'n' || b.k === 'd')) return a.v - b.v
  if (a.k === 's' && b.k === 's') {
    const x = a.v.toLowerCase()
    const y = b.v.toLowerCase()
    return x < y ? -1 : x > y ? 1 : 0
  }
  if (a.k === 'b' && b.k === 'b') return Number(a.v) - Number(b.v)
  if (a.k === 'e' && b.k === 'e') return a.v < b.v ? -1 : a.v > b.v ? 1 : 0
  return 0
}

function isoDate(serial: number): string {
  const ms = Math.round((serial - 25_569) * 86_400_000)
  const iso = new Date(ms).toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19)
}

/** How an item reads in a receipt, an error message or a filter. */
export function itemLabel(v: PivotValue): string {
  switch (v.k) {
    case 'm':
      return '(blank)'
    case 'n':
      return String(v.v)
    case 'd':
      return isoDate(v.v)
    case 'b':
      return v.v ? 'TRUE' : 'FALSE'
    default:
      return v.v
  }
}

function matchesLabel(v: PivotValue, wanted: string): boolean {
  const w = wanted.trim().toLowerCase()
  if (itemLabel(v).toLowerCase() === w) return true
  if (v.k === 'm') return w === ''
  if (v.k === 'n' && w !== '' && Number(w) === v.v) return true
  return false
}

export function collectItems(column: PivotColumn): FieldItems {
  const index = new Map<string, number>()
  const items: PivotValue[] = []
  const first = new Int32Array(column.length)
  for (let i = 0; i < column.length; i++) {
    const v = column.at(i)
    const key = itemKey(v)
    let at = index.get(key)
    if (at === undefined) {
      at = items.length
      index.set(key, at)
      items.push(v)
    }
    first[i] = at
  }
  const order = items.map((_, i) => i).sort((a, b) => compareItems(items[a]!, items[b]!))
  const position = new Int32Array(items.length)
  order.forEach((from, to) => {
    position[from] = to
  })
  const ofRecord = new Int32Array(column.length)
  for (let i = 0; i < column.length; i++) ofRecord[i] = position[first[i]!]!
  return { items: order.map((i) => items[i]!), ofRecord, hidden: items.map(() => false) }
}

interface Acc {
  count: number
  nums: number
  sum: number
  min: number
  max: number
  prod: number
  error?: string
}

function newAcc(): Acc {
  return { count: 0, nums: 0, sum: 0, min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY, prod: 1 }
}

function add(acc: Acc, v: PivotValue): void {
  if (v.k === 'm') return
  acc.count++
  if (v.k === 'n' || v.k === 'd') {
    acc.nums++
    acc.sum += v.v
    if (v.v < acc.min) acc.min = v.v
    if (v.v > acc.max) acc.max = v.v
    acc.prod *= v.v
  } else if (v.k === 'e' && acc.error === undefined) acc.error = v.v
}

function result(acc: Acc, summary: Summary, numFmt: string | undefined): OutValue {
  const num = (n: number): OutValue => (numFmt ? { number: n, numFmt } : n)
  if (summary === 'count') return num(acc.count)
  if (summary === 'count_numbers') return num(acc.nums)
  if (acc.error !== undefined) return { error: acc.error }
  switch (summary) {
    case 'sum':
      return num(acc.sum)
    case 'average':
      return acc.nums > 0 ? num(acc.sum / acc.nums) : { error: '#DIV/0!' }
    case 'min':
      return num(acc.nums > 0 ? acc.min : 0)
    case 'max':
      return num(acc.nums > 0 ? acc.max : 0)
    default:
      return num(acc.nums > 0 ? acc.prod : 0)
  }
}

function compareTuples(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return 0
}

/** Groups `records` by the item tuples of `fields`, sorted in item order. */
function groupTuples(
  fields: number[],
  fieldItems: Map<number, FieldItems>,
  records: Int32Array,
): { tuples: number[][]; ofRecord: Int32Array } {
  const index = new Map<string, number>()
  const tuples: number[][] = []
  const first = new Int32Array(records.length)
  const lists = fields.map((f) => fieldItems.get(f)!.ofRecord)
  for (let n = 0; n < records.length; n++) {
    const rec = records[n]!
    let key = ''
    for (const list of lists) key += `${list[rec]},`
    let at = index.get(key)
    if (at === undefined) {
      at = tuples.length
      index.set(key, at)
      tuples.push(lists.map((list) => list[rec]!))
    }
    first[n] = at
  }
  const order = tuples.map((_, i) => i).sort((a, b) => compareTuples(tuples[a]!, tuples[b]!))
  const position = new Int32Array(tuples.length)
  order.forEach((from, to) => {
    position[from] = to
  })
  const ofRecord = new Int32Array(records.length)
  for (let n = 0; n < records.length; n++) ofRecord[n] = position[first[n]!]!
  return { tuples: order.map((i) => tuples[i]!), ofRecord }
}

/** The label cell of an item: typed as in the source (dates keep a date format). */
function labelCell(v: PivotValue, dateFormat: string | undefined): OutValue {
  switch (v.k) {
    case 'm':
      return '(blank)'
    case 'd':
      return { date: v.v, numFmt: dateFormat && dateFormat !== 'General' ? dateFormat : 'yyyy-mm-dd' }
    case 'e':
      return { error: v.v }
    default:
      return v.v
  }
}

/** Computes a pivot table in tabular layout without subtotals, with grand totals, as Excel and LibreOffice lay it out. */
export function computePivot(source: PivotSource, spec: PivotSpec): PivotResult {
  if (spec.rows.length === 0) throw invalidInput('a pivot table needs at least one row field')
  if (spec.values.length === 0) throw invalidInput('a pivot table needs at least one value field')
  const axis = [...spec.rows, ...spec.columns]
  if (new Set(axis).size !== axis.length)
    throw invalidInput('a field can be a row or a column field once, not in both or twice')
  const fieldItems = new Map<number, FieldItems>()
  for (const f of [...axis, ...spec.filters.map((x) => x.field)])
    if (!fieldItems.has(f)) fieldItems.set(f, collectItems(source.columns[f]!))
  for (const filter of spec.filters) {
    if (!filter.include) continue
    const items = fieldItems.get(filter.field)!
    const shown = new Set<number>()
    for (const wanted of filter.include) {
      const at = items.items.findIndex((v) => matchesLabel(v, wanted))
      if (at < 0)
        throw invalidInput(
          `filter on "${source.fields[filter.field]}": "${wanted}" is not one of its items (${items.items
            .slice(0, 20)
            .map(itemLabel)
            .join(', ')}${items.items.length > 20 ? ', …' : ''})`,
        )
      shown.add(at)
    }
    items.hidden = items.items.map((_, i) => items.hidden[i] || !shown.has(i))
  }
  const kept: number[] = []
  const filtered = spec.filters.map((f) => fieldItems.get(f.field)!)
  for (let i = 0; i < source.records; i++)
    if (filtered.every((items) => !items.hidden[items.ofRecord[i]!])) kept.push(i)
  const records = Int32Array.from(kept)
  const rows = groupTuples(spec.rows, fieldItems, records)
  const cols = groupTuples(spec.columns, fieldItems, records)
  const rowCount = rows.tuples.length
  const colCount = cols.tuples.length
  const v = spec.values.length
  // Per value: cells, row totals (col = colCount), column totals (row = rowCount), grand total.
  const accs = spec.values.map(() => new Map<number, Acc>())
  const slot = (r: number, c: number) => r * (colCount + 1) + c
  const acc = (map: Map<number, Acc>, key: number): Acc => {
    let a = map.get(key)
    if (!a) {
      a = newAcc()
      map.set(key, a)
    }
    return a
  }
  for (let n = 0; n < records.length; n++) {
    const rec = records[n]!
    const r = rows.ofRecord[n]!
    const c = cols.ofRecord[n]!
    for (let k = 0; k < v; k++) {
      const value = source.columns[spec.values[k]!.field]!.at(rec)
      const map = accs[k]!
      add(acc(map, slot(r, c)), value)
      add(acc(map, slot(r, colCount)), value)
      add(acc(map, slot(rowCount, c)), value)
      add(acc(map, slot(rowCount, colCount)), value)
    }
  }
  const r = spec.rows.length
  const c = spec.columns.length
  const colLevels = c + (v > 1 ? 1 : 0)
  const headerRows = colLevels === 0 ? 1 : colLevels + 1
  // Data columns: (column tuple, value) pairs, then one grand total column per value.
  const dataCols: { tuple?: number; value: number }[] = []
  if (c === 0) for (let k = 0; k < v; k++) dataCols.push({ tuple: 0, value: k })
  else {
    for (let t = 0; t < colCount; t++) for (let k = 0; k < v; k++) dataCols.push({ tuple: t, value: k })
    for (let k = 0; k < v; k++) dataCols.push({ value: k })
  }
  const tableColumns = r + dataCols.length
  const tableRows = headerRows + rowCount + 1
  const label = (field: number, item: number) =>
    labelCell(fieldItems.get(field)!.items[item]!, source.dateFormats[field])
  const table: (OutValue | null)[][] = Array.from({ length: tableRows }, () =>
    new Array<OutValue | null>(tableColumns).fill(null),
  )
  const valueName = (k: number) => spec.values[k]!.name
  if (headerRows === 1) {
    spec.rows.forEach((f, i) => {
      table[0]![i] = source.fields[f]!
    })
    table[0]![r] = valueName(0)
  } else {
    if (v === 1) table[0]![0] = valueName(0)
    spec.columns.forEach((f, i) => {
      table[0]![r + i] = source.fields[f]!
    })
    if (v > 1) table[0]![r + c] = 'Values'
    dataCols.forEach((dc, j) => {
      const prev = dataCols[j - 1]
      for (let level = 0; level < colLevels; level++) {
        let cell: OutValue | null = null
        if (dc.tuple === undefined) {
          if (level === 0) cell = v > 1 ? `Total ${valueName(dc.value)}` : 'Grand Total'
        } else if (level < c) {
          const tuple = cols.tuples[dc.tuple]!
          const prevTuple = prev?.tuple === undefined ? undefined : cols.tuples[prev.tuple]
          const same =
            prevTuple !== undefined && tuple.slice(0, level + 1).every((x, i) => prevTuple[i] === x)
          if (!same) cell = label(spec.columns[level]!, tuple[level]!)
        } else cell = valueName(dc.value)
        table[1 + level]![r + j] = cell
      }
    })
    spec.rows.forEach((f, i) => {
      table[headerRows - 1]![i] = source.fields[f]!
    })
  }
  const numFmt = (k: number) => spec.values[k]!.numberFormat
  for (let i = 0; i <= rowCount; i++) {
    const line = table[headerRows + i]!
    if (i === rowCount) line[0] = 'Grand Total'
    else {
      const tuple = rows.tuples[i]!
      const prev = rows.tuples[i - 1]
      for (let level = 0; level < r; level++) {
        const same = prev !== undefined && tuple.slice(0, level + 1).every((x, n) => prev[n] === x)
        if (!same) line[level] = label(spec.rows[level]!, tuple[level]!)
      }
    }
    dataCols.forEach((dc, j) => {
      const a = accs[dc.value]!.get(slot(i, dc.tuple ?? colCount))
      if (a) line[r + j] = result(a, spec.values[dc.value]!.summary, numFmt(dc.value))
    })
  }
  const pages = spec.filters.filter((f) => !axis.includes(f.field))
  const pageRows = pages.length > 0 ? pages.length + 1 : 0
  const grid: (OutValue | null)[][] = []
  for (const page of pages) {
    const items = fieldItems.get(page.field)!
    const shown = items.items.filter((_, i) => !items.hidden[i])
    grid.push([
      source.fields[page.field]!,
      shown.length === items.items.length
        ? '(All)'
        : shown.length === 1
          ? label(page.field, items.items.indexOf(shown[0]!))
          : '(Multiple Items)',
    ])
  }
  if (pageRows > 0) grid.push([])
  grid.push(...table)
  return {
    spec,
    fieldItems,
    rowTuples: rows.tuples,
    colTuples: cols.tuples,
    grid,
    pageRows,
    tableRows,
    tableColumns,
    headerRows,
    counted: records.length,
  }
}

export function defaultValueName(summary: Summary, field: string): string {
  const word: Record<Summary, string> = {
    sum: 'Sum',
    count: 'Count',
    average: 'Average',
    min: 'Min',
    max: 'Max',
    count_numbers: 'Count Numbers',
    product: 'Product',
  }
  return `${word[summary]} of ${field}`
}
