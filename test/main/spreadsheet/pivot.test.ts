import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { strFromU8 } from 'fflate'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { itNeeding } from '../../support/itNeeding'
import { findProgram } from '../../support/requirements'
import { createHarness, type Harness } from './harness'

let h: Harness
const P = '/pivot.xlsx'

const DATA = [
  ['Region', 'Product', 'Year', 'Amount', 'Units'],
  ['East', 'Pens', 2023, 100, 5],
  ['West', 'Pens', 2023, 50, 2],
  ['East', 'Ink', 2024, 30, 1],
  ['East', 'Pens', 2024, 20, 'n/a'],
  ['West', 'Ink', 2024, 80, 4],
  ['North', 'Ink', 2023, null, 3],
]

interface PivotReceipt {
  range: string
  values: string[][]
  pivot: { name: string; location: string; source: string; records: number; counted: number }
}

function onDisk(): Record<string, string> {
  const parts = readPackage(readFileSync(path.join(h.root, 'pivot.xlsx')))
  return Object.fromEntries(
    Object.entries(parts)
      .filter(([n]) => /\.(xml|rels)$/.test(n))
      .map(([n, b]) => [n, strFromU8(b)]),
  )
}

beforeEach(async () => {
  h = await createHarness()
  await h.call('create', { path: P, sheet: 'Data' })
  await h.call('set_range', { path: P, sheet: 'Data', start: 'A1', values: DATA })
})
afterEach(async () => h.cleanup())

describe('create_pivot_table', () => {
  it('computes rows × columns with sums and writes the pivot parts on save', async () => {
    const r = await h.call<PivotReceipt>('create_pivot_table', {
      path: P,
      source: 'Data!A1:E7',
      target: { sheet: 'Pivot', cell: 'A3' },
      rows: ['Region'],
      columns: ['Year'],
      values: [{ field: 'Amount', summary: 'sum' }],
    })
    expect(r.pivot).toEqual({
      name: 'PivotTable1',
      location: 'A3:D8',
      source: 'Data!A1:E7',
      records: 6,
      counted: 6,
    })
    expect(r.values).toEqual([
      ['Sum of Amount', 'Year', '', ''],
      ['Region', '2023', '2024', 'Grand Total'],
      ['East', '100', '50', '150'],
      ['North', '0', '', '0'],
      ['West', '50', '80', '130'],
      ['Grand Total', '150', '130', '280'],
    ])
    await h.call('save', { path: P })
    const parts = onDisk()
    const table = Object.entries(parts).find(([n]) => /^xl\/pivotTables\/pivotTable\d+\.xml$/.test(n))?.[1]
    const cache = Object.entries(parts).find(([n]) => /pivotCacheDefinition\d+\.xml$/.test(n))?.[1]
    const records = Object.entries(parts).find(([n]) => /pivotCacheRecords\d+\.xml$/.test(n))?.[1]
    expect(table).toContain('<location ref="A3:D8"')
    expect(table).toContain('<rowFields count="1"><field x="0"/></rowFields>')
    expect(table).toContain('<dataField name="Sum of Amount" fld="3"')
    expect(cache).toContain('<worksheetSource ref="A1:E7" sheet="Data"/>')
    expect(records?.match(/<r>/g)).toHaveLength(6)
    expect(parts['xl/workbook.xml']).toMatch(
      /<pivotCaches><pivotCache cacheId="1" r:id="rId\d+"\/><\/pivotCaches>/,
    )
    expect(parts['[Content_Types].xml']).toContain('spreadsheetml.pivotTable+xml')
    const described = await h.call<{ pivots: unknown[] }>('describe_worksheet', { path: P, sheet: 'Pivot' })
    expect(described.pivots).toEqual([
      {
        name: 'PivotTable1',
        range: 'A3:D8',
        source: 'Data!A1:E7',
        rows: ['Region'],
        columns: ['Year'],
        values: ['Sum of Amount'],
      },
    ])
  })

  it('handles several values, summaries, page filters and number formats', async () => {
    const r = await h.call<PivotReceipt>('create_pivot_table', {
      path: P,
      source: 'Data!A:E',
      target: { sheet: 'Data', cell: 'H1' },
      rows: ['Product'],
      values: [
        { field: 'Amount', summary: 'average', number_format: '0.00' },
        { field: 'Units', summary: 'count' },
        { field: 'Units', summary: 'count_numbers', name: 'Numeric units' },
      ],
      filters: [{ field: 'Region', include: ['east', 'West'] }],
    })
    expect(r.pivot.counted).toBe(5)
    expect(r.pivot.location).toBe('H3:K7')
    expect(r.values).toEqual([
      ['Region', '(Multiple Items)', '', ''],
      ['', '', '', ''],
      ['', 'Values', '', ''],
      ['Product', 'Average of Amount', 'Count of Units', 'Numeric units'],
      ['Ink', '55.00', '2', '2'],
      ['Pens', '56.67', '3', '2'],
      ['Grand Total', '56.00', '5', '4'],
    ])
  })

  it('refresh_pivot_table recomputes after the source changed, before and after a save', async () => {
    await h.call('create_pivot_table', {
      path: P,
      source: 'Data!A1:E7',
      target: { sheet: 'Pivot', cell: 'B2' },
      rows: ['Region'],
      values: [{ field: 'Amount' }],
    })
    await h.call('set_cell_value', { path: P, sheet: 'Data', cell: 'D2', value: 1000 })
    let r = await h.call<PivotReceipt>('refresh_pivot_table', { path: P, sheet: 'Pivot' })
    expect(r.values.at(1)).toEqual(['East', '1050'])
    await h.call('save', { path: P })
    await h.newSession()
    await h.call('set_cell_value', { path: P, sheet: 'Data', cell: 'D3', value: 7 })
    r = await h.call<PivotReceipt>('refresh_pivot_table', { path: P, sheet: 'Pivot', name: 'PivotTable1' })
    expect(r.values).toEqual([
      ['Region', 'Sum of Amount'],
      ['East', '1050'],
      ['North', '0'],
      ['West', '87'],
      ['Grand Total', '1137'],
    ])
    await h.call('save', { path: P })
    const parts = onDisk()
    const records = Object.entries(parts).filter(([n]) => /pivotCacheRecords\d+\.xml$/.test(n))
    expect(records).toHaveLength(1)
    expect(records[0]![1]).toContain('<n v="7"/>')
    expect(Object.keys(parts).filter((n) => /pivotTables\/pivotTable\d+\.xml$/.test(n))).toHaveLength(1)
  })

  it('reads a table by its name; min and product summaries', async () => {
    await h.call('add_table', { path: P, sheet: 'Data', range: 'A1:E7', name: 'Sales' })
    const r = await h.call<PivotReceipt>('create_pivot_table', {
      path: P,
      source: 'Sales',
      target: { sheet: 'Pivot', cell: 'A1' },
      rows: ['Region'],
      values: [
        { field: 'Amount', summary: 'min' },
        { field: 'Units', summary: 'product' },
      ],
    })
    expect(r.pivot).toMatchObject({ source: 'Data!A1:E7', records: 6, counted: 6 })
    expect(r.values).toEqual([
      ['', 'Values', ''],
      ['Region', 'Min of Amount', 'Product of Units'],
      ['East', '20', '5'],
      ['North', '0', '3'],
      ['West', '50', '8'],
      ['Grand Total', '20', '120'],
    ])
    await h.call('save', { path: P })
    const cache = Object.entries(onDisk()).find(([n]) => /pivotCacheDefinition\d+\.xml$/.test(n))?.[1]
    expect(cache).toContain('<worksheetSource ref="A1:E7" sheet="Data"/>')
    const table = Object.entries(onDisk()).find(([n]) => /^xl\/pivotTables\/pivotTable\d+\.xml$/.test(n))?.[1]
    expect(table).toContain('subtotal="min"')
    expect(table).toContain('subtotal="product"')
  })

  it('a second pivot and a second save keep the first one', async () => {
    await h.call('create_pivot_table', {
      path: P,
      source: 'Data!A1:E7',
      target: { sheet: 'P1', cell: 'A1' },
      rows: ['Region'],
      values: [{ field: 'Amount' }],
    })
    await h.call('save', { path: P })
    await h.call('create_pivot_table', {
      path: P,
      source: 'Data!A1:E7',
      target: { sheet: 'P2', cell: 'A1' },
      rows: ['Product', 'Region'],
      values: [{ field: 'Units', summary: 'max' }],
    })
    await h.call('save', { path: P })
    const parts = onDisk()
    expect(parts['xl/workbook.xml']).toMatch(
      /<pivotCaches><pivotCache cacheId="1" r:id="rId\d+"\/><pivotCache cacheId="2" r:id="rId\d+"\/><\/pivotCaches>/,
    )
    const d1 = await h.call<{ pivots: { name: string }[] }>('describe_worksheet', { path: P, sheet: 'P1' })
    const d2 = await h.call<{ pivots: { name: string; rows: string[] }[] }>('describe_worksheet', {
      path: P,
      sheet: 'P2',
    })
    expect(d1.pivots.map((p) => p.name)).toEqual(['PivotTable1'])
    expect(d2.pivots).toMatchObject([{ name: 'PivotTable2', rows: ['Product', 'Region'] }])
  })
})

describe('create_pivot_table refuses bad input and leaves the workbook untouched', () => {
  const base = {
    path: P,
    source: 'Data!A1:E7',
    target: { sheet: 'Pivot', cell: 'A3' },
    rows: ['Region'],
    values: [{ field: 'Amount' }],
  }
  it.each([
    ['an empty range', { source: 'Data!J1:L9' }, /is empty/],
    ['a header without data', { source: 'Data!A1:E1' }, /no data rows below its header/],
    ['an unknown field', { rows: ['Country'] }, /row field "Country" is not a column.*Region, Product, Year/],
    ['an unknown value field', { values: [{ field: 'Price' }] }, /value field "Price"/],
    ['a target overlapping the source', { target: { sheet: 'Data', cell: 'C4' } }, /overlaps its source/],
    ['a target on data', { target: { sheet: 'Data', cell: 'A6' }, source: 'Data!A1:E5' }, /holds data/],
    ['a range without a header', { source: 'Data!A2:E7' }, /needs a header row|is not a column/],
    [
      'an unknown filter item',
      { filters: [{ field: 'Region', include: ['South'] }] },
      /"South" is not one of/,
    ],
    ['a bad sheet name', { target: { sheet: 'a/b', cell: 'A1' } }, /not a valid sheet name/],
  ])('%s', async (_, change, message) => {
    await h.call('save', { path: P })
    const before = onDisk()
    const error = await h.fail('create_pivot_table', { ...base, ...change })
    expect(error).toMatch(message)
    const sheets = await h.call<{ sheets: string[] }>('get_sheet_names', { path: P })
    expect(sheets.sheets).toEqual(['Data'])
    const data = await h.call<{ values: string[][] }>('get_range', {
      path: P,
      sheet: 'Data',
      range: 'A1:L12',
    })
    expect(data.values.slice(0, 7).map((row) => row.slice(0, 5))).toEqual(
      DATA.map((row) => row.map((v) => (v === null ? '' : String(v)))),
    )
    expect(data.values.flat().filter(Boolean)).toHaveLength(DATA.flat().filter((v) => v !== null).length)
    await h.call('save', { path: P })
    const after = onDisk()
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort())
    expect(after['xl/worksheets/sheet1.xml']).toBe(before['xl/worksheets/sheet1.xml'])
    expect(after['xl/workbook.xml']).toBe(before['xl/workbook.xml'])
  })
})

// Debian's interpreter: its modules live only there (findProgram names it with the module).
const PYTHON = findProgram('openpyxl')?.split(' ')[0]

itNeeding(['openpyxl'], "Debian's openpyxl reads the pivot table's fields, cache and records", async () => {
  await h.call('create_pivot_table', {
    path: P,
    source: 'Data!A1:E7',
    target: { sheet: 'Pivot', cell: 'A3' },
    rows: ['Region', 'Product'],
    columns: ['Year'],
    values: [
      { field: 'Amount', summary: 'sum' },
      { field: 'Units', summary: 'max' },
    ],
    filters: [{ field: 'Region', include: ['East', 'West'] }],
  })
  await h.call('save', { path: P })
  const script = path.join(h.root, 'read.py')
  writeFileSync(
    script,
    `import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
ws = wb["Pivot"]
p = ws._pivots[0]
c = p.cache
print(json.dumps({
  "name": p.name, "ref": p.location.ref,
  "rows": [f.x for f in p.rowFields], "cols": [f.x for f in p.colFields],
  "data": [[d.name, d.fld, d.subtotal] for d in p.dataFields],
  "fields": [f.name for f in c.cacheFields], "source": [c.cacheSource.worksheetSource.sheet, c.cacheSource.worksheetSource.ref],
  "records": len(c.records.r), "hidden": [i.x for i in p.pivotFields[0].items if i.h],
  "cell": ws["C5"].value,
}))
`,
  )
  const out = JSON.parse(
    execFileSync(PYTHON!, [script, path.join(h.root, 'pivot.xlsx')], { encoding: 'utf8' }),
  )
  expect(out).toMatchObject({
    name: 'PivotTable1',
    rows: [0, 1],
    cols: [2, -2],
    data: [
      ['Sum of Amount', 3, 'sum'],
      ['Max of Units', 4, 'max'],
    ],
    fields: ['Region', 'Product', 'Year', 'Amount', 'Units'],
    source: ['Data', 'A1:E7'],
    records: 6,
    hidden: [1],
  })
})
