import { writeFileSync } from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createHarness, type Harness } from './harness'

// Counts how often a package is inflated (every other call goes to the real module).
const inflations = vi.hoisted(() => ({ count: 0 }))
vi.mock('../../../src/main/spreadsheet/ooxml/packageParts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/main/spreadsheet/ooxml/packageParts')>()
  return {
    ...real,
    readPackage: (...args: Parameters<typeof real.readPackage>) => {
      inflations.count++
      return real.readPackage(...args)
    },
  }
})

// `open` reads an outline of a plain data sheet and the first edit loads the cells. Calls that run at
// once (an MCP client may send several) must all work on one copy, and nothing an edit wrote may be lost.

let h: Harness
const P = '/data.xlsx'

async function plainSheet(file: string): Promise<void> {
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet('Data')
  ws.addRow(['Id', 'Name', 'Qty'])
  for (let i = 1; i <= 300; i++) ws.addRow([i, `item ${i}`, i % 7])
  writeFileSync(file, new Uint8Array(await wb.xlsx.writeBuffer()))
}

async function cells(range: string): Promise<unknown[][]> {
  const page = await h.call<{ values: unknown[][] }>('get_range', { path: P, sheet: 'Data', range })
  return page.values
}

beforeEach(async () => {
  h = await createHarness()
  await plainSheet(path.join(h.root, 'data.xlsx'))
})
afterEach(() => h.cleanup())

describe('outline and whole load of one workbook', () => {
  it('open, describe and edits sent at once edit one copy; the save and a new session see every edit', async () => {
    const [opened, , , described] = await Promise.all([
      h.call<{ sheets: { usedRange: string }[] }>('open', { path: P }),
      h.call('set_range', { path: P, sheet: 'Data', start: 'B2', values: [['first edit']] }),
      h.call('set_range', { path: P, sheet: 'Data', start: 'B3', values: [['second edit']] }),
      h.call<{ usedRange: string }>('describe_worksheet', { path: P, sheet: 'Data' }),
      h.call('open', { path: P }),
    ])
    expect(opened.sheets[0]?.usedRange).toBe('A1:C301')
    expect(described.usedRange).toBe('A1:C301')
    expect(await cells('B2:B3')).toEqual([['first edit'], ['second edit']])
    await h.call('save', { path: P })
    await h.call('close', { path: P, save: false })
    // Reopened after close: an outline from before the edits must not come back.
    await h.call('open', { path: P })
    expect(await cells('B2:B4')).toEqual([['first edit'], ['second edit'], ['item 3']])
    await h.newSession()
    await h.call('open', { path: P })
    expect(await cells('B2:B3')).toEqual([['first edit'], ['second edit']])
  })

  it('the first edit changes the workbook that was opened, not a file replaced on disk since', async () => {
    await h.call('open', { path: P })
    const wb = new ExcelJS.Workbook()
    wb.addWorksheet('Data').addRow(['replaced'])
    writeFileSync(path.join(h.root, 'data.xlsx'), new Uint8Array(await wb.xlsx.writeBuffer()))
    await h.call('set_range', { path: P, sheet: 'Data', start: 'D1', values: [['Note']] })
    expect(await cells('A1:D2')).toEqual([
      ['Id', 'Name', 'Qty', 'Note'],
      ['1', 'item 1', '1', ''],
    ])
  })

  it('a workbook the outline cannot read (formulas) is inflated once on open, and loaded whole from those parts', async () => {
    const wb = new ExcelJS.Workbook()
    const ws = wb.addWorksheet('Data')
    ws.addRow(['Qty', 'Double'])
    for (let i = 1; i <= 50; i++) ws.addRow([i, { formula: `A${i + 1}*2`, result: i * 2 }])
    writeFileSync(path.join(h.root, 'formulas.xlsx'), new Uint8Array(await wb.xlsx.writeBuffer()))
    inflations.count = 0
    const opened = await h.call<{ sheets: { usedRange: string }[] }>('open', { path: '/formulas.xlsx' })
    expect(opened.sheets[0]?.usedRange).toBe('A1:B51')
    expect(inflations.count).toBe(1)
    await h.call('set_range', { path: '/formulas.xlsx', sheet: 'Data', start: 'A2', values: [[10]] })
    const page = await h.call<{ values: unknown[][] }>('get_range', {
      path: '/formulas.xlsx',
      sheet: 'Data',
      range: 'A2:B2',
    })
    expect(page.values).toEqual([['10', '20']])
    expect(inflations.count).toBe(1)
  })
})
