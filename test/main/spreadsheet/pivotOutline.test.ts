import { copyFileSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { strFromU8 } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { createHarness, type Harness } from './harness'

// A workbook not yet loaded is pivoted from its outline (the source read from the sheet's bytes); one
// loaded whole from its cells. Both must give the same table, cells and parts. 300 rows: past the rows
// the outline loads as cells, so the bytes are read.

const ROWS = 300
const REGIONS = ['East', 'West', 'North', null]

interface PivotReceipt {
  range: string
  values: string[][]
  pivot: { name: string; location: string; source: string; records: number; counted: number }
}

const REQUEST = {
  source: 'Data!A:F',
  target: { sheet: 'Pivot', cell: 'A3' },
  rows: ['Region', 'Day'],
  columns: ['Flag'],
  values: [
    { field: 'Amount', summary: 'sum' },
    { field: 'Amount', summary: 'count', name: 'Entries' },
    { field: 'Qty', summary: 'max', number_format: '0.00' },
  ],
  filters: [{ field: 'Kind', include: ['a', 'b'] }],
}

let h: Harness

function pivotParts(file: string): Record<string, string> {
  const parts = readPackage(readFileSync(path.join(h.root, file)))
  return Object.fromEntries(
    Object.entries(parts)
      .filter(([name]) => /^xl\/(pivotCache|pivotTables)\//.test(name))
      .map(([name, bytes]) => [name, strFromU8(bytes)]),
  )
}

async function pivotCells(file: string, location: string): Promise<string[][]> {
  const r = await h.call<{ values: string[][] }>('get_range', { path: file, sheet: 'Pivot', range: location })
  return r.values
}

beforeAll(async () => {
  h = await createHarness()
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet('Data')
  ws.addRow(['Region', 'Day', 'Amount', 'Qty', 'Flag', 'Kind'])
  for (let i = 0; i < ROWS; i++)
    ws.addRow([
      REGIONS[i % 4],
      new Date(Date.UTC(2024, 0, 1 + (i % 3))),
      i % 17 === 0 ? 'n/a' : i % 23 === 0 ? null : (i * 37) % 1000,
      i % 11,
      i % 2 === 0,
      ['a', 'b', 'c'][i % 3],
    ])
  ws.getColumn(2).numFmt = 'yyyy-mm-dd'
  await wb.xlsx.writeFile(path.join(h.root, 'source.xlsx'))
  for (const name of ['outline', 'whole', 'written', 'replayed', 'bad'])
    copyFileSync(path.join(h.root, 'source.xlsx'), path.join(h.root, `${name}.xlsx`))
}, 60_000)
afterAll(async () => h?.cleanup())

describe('create_pivot_table on a workbook read as an outline', () => {
  it('gives the same receipt, cells and parts as on the workbook loaded whole', async () => {
    // get_sheet_names loads the workbook whole; describe_worksheet reads only its outline.
    await h.call('get_sheet_names', { path: '/whole.xlsx' })
    await h.call('describe_worksheet', { path: '/outline.xlsx', sheet: 'Data' })
    const whole = await h.call<PivotReceipt>('create_pivot_table', { path: '/whole.xlsx', ...REQUEST })
    const outline = await h.call<PivotReceipt>('create_pivot_table', { path: '/outline.xlsx', ...REQUEST })
    expect(outline.pivot).toEqual({ ...whole.pivot, records: ROWS, counted: 200 })
    expect(outline.values).toEqual(whole.values)
    expect(outline.values.at(-1)?.[0]).toBe('Grand Total')
    await h.call('save', { path: '/whole.xlsx' })
    await h.call('save', { path: '/outline.xlsx' })
    const parts = pivotParts('outline.xlsx')
    expect(Object.keys(parts).sort()).toEqual([
      'xl/pivotCache/_rels/pivotCacheDefinition1.xml.rels',
      'xl/pivotCache/pivotCacheDefinition1.xml',
      'xl/pivotCache/pivotCacheRecords1.xml',
      'xl/pivotTables/_rels/pivotTable1.xml.rels',
      'xl/pivotTables/pivotTable1.xml',
    ])
    expect(parts['xl/pivotCache/pivotCacheRecords1.xml']?.match(/<r>/g)).toHaveLength(ROWS)
    expect(parts).toEqual(pivotParts('whole.xlsx'))
    // Read back from the saved files.
    expect(await pivotCells('/outline.xlsx', outline.pivot.location)).toEqual(
      await pivotCells('/whole.xlsx', whole.pivot.location),
    )
  })

  it('refuses bad input on the outline and leaves the workbook untouched', async () => {
    const base = { path: '/bad.xlsx', ...REQUEST, filters: [] }
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ rows: ['Country'] }, /row field "Country" is not a column.*Region, Day, Amount/],
      [{ source: 'Data!J1:L9' }, /is empty/],
      [{ source: 'Data!A1:F1' }, /no data rows below its header/],
      [{ source: 'Data!A2:F20' }, /needs a header row|is not a column/],
      [{ filters: [{ field: 'Kind', include: ['z'] }] }, /"z" is not one of/],
      [{ target: { sheet: 'a/b', cell: 'A1' } }, /not a valid sheet name/],
      [{ target: { sheet: 'Data', cell: 'B5' } }, /overlaps its source/],
    ]
    for (const [change, message] of cases)
      expect(await h.fail('create_pivot_table', { ...base, ...change })).toMatch(message)
    const file = (name: string) => readFileSync(path.join(h.root, name))
    expect(file('bad.xlsx').equals(file('source.xlsx'))).toBe(true)
    expect((await h.call<{ sheets: string[] }>('get_sheet_names', { path: '/bad.xlsx' })).sheets).toEqual([
      'Data',
    ])
    await h.call('save', { path: '/bad.xlsx' })
    expect(pivotParts('bad.xlsx')).toEqual({})
  })

  it('counts a write the outline kept in the source rows', async () => {
    await h.call('set_range', { path: '/written.xlsx', sheet: 'Data', start: 'C250', values: [[1_000_000]] })
    const r = await h.call<PivotReceipt>('create_pivot_table', {
      path: '/written.xlsx',
      source: 'Data!A:F',
      target: { sheet: 'Pivot', cell: 'A1' },
      rows: ['Kind'],
      values: [{ field: 'Amount', summary: 'max' }],
    })
    expect(r.values.at(-1)).toEqual(['Grand Total', '1000000'])
  })

  it('keeps the pivot when a later call loads the workbook whole, and saves it', async () => {
    const r = await h.call<PivotReceipt>('create_pivot_table', { path: '/replayed.xlsx', ...REQUEST })
    await h.call('set_range', { path: '/replayed.xlsx', sheet: 'Data', start: 'D260', values: [[999]] })
    // Loads the workbook whole: the pivot is made again there, before the write that came after it.
    expect(
      (await h.call<{ sheets: string[] }>('get_sheet_names', { path: '/replayed.xlsx' })).sheets,
    ).toEqual(['Data', 'Pivot'])
    await h.call('save', { path: '/replayed.xlsx' })
    expect(await pivotCells('/replayed.xlsx', r.range)).toEqual(r.values)
    expect(pivotParts('replayed.xlsx')['xl/pivotCache/pivotCacheRecords1.xml']?.match(/<r>/g)).toHaveLength(
      ROWS,
    )
    const cell = await h.call<{ values: string[][] }>('get_range', {
      path: '/replayed.xlsx',
      sheet: 'Data',
      range: 'D260',
    })
    expect(cell.values).toEqual([['999']])
  })
})
