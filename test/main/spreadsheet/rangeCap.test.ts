import path from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness'

const P = '/wide.xlsx'
let h: Harness

beforeAll(async () => {
  h = await createHarness()
  const wb = new ExcelJS.Workbook()
  // 300 used columns x 3 rows; 120 columns x 520 rows (62,400 cells: more than one page holds).
  const wide = wb.addWorksheet('Wide')
  for (let r = 1; r <= 3; r++) wide.addRow(Array.from({ length: 300 }, (_, c) => r * 1000 + c + 1))
  const tall = wb.addWorksheet('Tall')
  for (let r = 1; r <= 520; r++) tall.addRow(Array.from({ length: 120 }, (_, c) => (c === 0 ? r : c)))
  const narrow = wb.addWorksheet('Narrow')
  narrow.addRows([
    ['a', 'b', 'c'],
    [1, 2, 3],
  ])
  await wb.xlsx.writeFile(path.join(h.root, 'wide.xlsx'))
}, 60_000)
afterAll(async () => h?.cleanup())

interface Page {
  range: string
  rows: number
  columns: number
  values: string[][]
  totalRows: number
  nextPage?: number
  nextRange?: string
  truncated?: string
}

describe('get_range on a huge range', () => {
  it('A1:XFD3 on a 300-column sheet: empty columns dropped, 100 columns returned, nextRange names the rest', async () => {
    const first = await h.call<Page>('get_range', { path: P, sheet: 'Wide', range: 'A1:XFD3' })
    expect(first).toMatchObject({
      range: 'A1:CV3',
      rows: 3,
      columns: 100,
      totalRows: 3,
      nextRange: 'CW1:KN3',
    })
    expect(first.values.map((r) => r.length)).toEqual([100, 100, 100])
    expect(first.values[2]![99]).toBe('3100')
    expect(first.truncated).toBe(
      'Columns KO:XFD are past the last used column (KN) and empty, so they were left out; only 100 of 300 columns (A:CV) are returned per call; read range CW1:KN3 for the rest.',
    )
    expect(first).not.toHaveProperty('nextPage')
    const second = await h.call<Page>('get_range', { path: P, sheet: 'Wide', range: first.nextRange })
    expect(second).toMatchObject({ range: 'CW1:GR3', columns: 100, nextRange: 'GS1:KN3' })
    expect(second.values[0]![0]).toBe('1101')
    const last = await h.call<Page>('get_range', { path: P, sheet: 'Wide', range: second.nextRange })
    expect(last).toMatchObject({ range: 'GS1:KN3', columns: 100 })
    expect(last).not.toHaveProperty('nextRange')
    expect(last).not.toHaveProperty('truncated')
    expect(last.values[0]![99]).toBe('1300')
  })

  it('whole columns A:XFD on a 3-column sheet return the used columns and say why', async () => {
    const page = await h.call<Page>('get_range', { path: P, sheet: 'Narrow', range: 'A:XFD' })
    expect(page).toEqual({
      sheet: 'Narrow',
      range: 'A1:C2',
      rows: 2,
      columns: 3,
      values: [
        ['a', 'b', 'c'],
        ['1', '2', '3'],
      ],
      totalRows: 2,
      truncated: 'Columns D:XFD are past the last used column (C) and empty, so they were left out.',
    })
  })

  it('a wide page holds at most 50,000 cells: fewer rows per page, nextPage continues', async () => {
    const first = await h.call<Page>('get_range', { path: P, sheet: 'Tall', range: 'A:XFD', page_rows: 5000 })
    expect(first).toMatchObject({
      range: 'A1:CV500',
      rows: 500,
      columns: 100,
      totalRows: 520,
      nextPage: 2,
      nextRange: 'CW1:DP520',
    })
    expect(first.truncated).toContain(
      'pages hold 500 rows at this width (at most 50,000 cells); pass page 2 for the next rows',
    )
    const second = await h.call<Page>('get_range', {
      path: P,
      sheet: 'Tall',
      range: 'A:XFD',
      page_rows: 5000,
      page: 2,
    })
    expect(second).toMatchObject({ range: 'A501:CV520', rows: 20, totalRows: 520 })
    expect(second).not.toHaveProperty('nextPage')
    expect(second.values[19]![0]).toBe('520')
  })

  it('a range of up to 100 columns reads exactly as asked, empty columns included', async () => {
    const page = await h.call<Page>('get_range', { path: P, sheet: 'Narrow', range: 'A1:E2' })
    expect(page).toEqual({
      sheet: 'Narrow',
      range: 'A1:E2',
      rows: 2,
      columns: 5,
      values: [
        ['a', 'b', 'c', '', ''],
        ['1', '2', '3', '', ''],
      ],
      totalRows: 2,
    })
  })
})
