import { writeFileSync } from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createHarness, type Harness } from './harness'

// Counts the whole loads of a workbook (every other call goes to the real module): writes that need no
// other cell, and their save, must not build the sheet's cells.
const loads = vi.hoisted(() => ({ count: 0 }))
vi.mock('../../../src/main/spreadsheet/workbook/loadWorkbook', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/main/spreadsheet/workbook/loadWorkbook')>()
  return {
    ...real,
    loadWorkbook: (...args: Parameters<typeof real.loadWorkbook>) => {
      loads.count++
      return real.loadWorkbook(...args)
    },
  }
})

let h: Harness
const P = '/data.xlsx'

beforeEach(async () => {
  h = await createHarness()
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet('Data')
  for (let i = 1; i <= 2000; i++) ws.addRow([i, `item ${i}`, i % 7])
  writeFileSync(path.join(h.root, 'data.xlsx'), new Uint8Array(await wb.xlsx.writeBuffer()))
  loads.count = 0
})
afterEach(() => h.cleanup())

describe('an outlined workbook written without a whole load', () => {
  it('open, describe, writes of plain values, append and save load no workbook whole (the save reopens the package without rows)', async () => {
    await h.call('open', { path: P })
    await h.call('describe_worksheet', { path: P, sheet: 'Data' })
    await h.call('set_range', {
      path: P,
      sheet: 'Data',
      start: 'B1500',
      values: [
        ['a', 1],
        ['b', 2],
      ],
    })
    await h.call('set_cell_value', { path: P, sheet: 'Data', cell: 'D10', value: true })
    const appended = await h.call<{ range: string }>('append_rows', {
      path: P,
      sheet: 'Data',
      rows: [[2001, 'item 2001', 6]],
    })
    expect(appended.range).toBe('A2001:C2001')
    await h.call('save', { path: P })
    // checkReopens loads the saved package (without its rows) once: that is the save's verification.
    expect(loads.count).toBe(1)
    const page = await h.call<{ values: string[][] }>('get_range', {
      path: P,
      sheet: 'Data',
      range: 'A1500:C1501',
    })
    expect(page.values).toEqual([
      ['1500', 'a', '1'],
      ['1501', 'b', '2'],
    ])
  })

  it('a formula loads the workbook whole once, with the writes kept so far', async () => {
    await h.call('open', { path: P })
    await h.call('set_range', { path: P, sheet: 'Data', start: 'B1500', values: [['kept']] })
    expect(loads.count).toBe(0)
    await h.call('set_cell_formula', { path: P, sheet: 'Data', cell: 'D1', formula: '=COUNTIF(B:B,"kept")' })
    expect(loads.count).toBe(1)
    const page = await h.call<{ values: string[][] }>('get_range', { path: P, sheet: 'Data', range: 'D1' })
    expect(page.values).toEqual([['1']])
    expect(loads.count).toBe(1)
  })
})
