import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { strFromU8 } from 'fflate'
import { afterEach, beforeEach, describe, expect } from 'vitest'
import { MAX_AREA_CELLS } from '../../../src/main/spreadsheet/cells/areaLimits'
import { copyArea } from '../../../src/main/spreadsheet/methods/editing'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { createWorkbook } from '../../../src/main/spreadsheet/workbook/loadWorkbook'
import { itFast as it, itSoak } from '../../support/tier'
import { createHarness, type Harness } from './harness'

// Writes over whole columns, whole rows, the whole sheet and huge ranges: they visit only the cells the
// sheet holds (or set column/row styles), return bounded receipts, and are refused over the limit with
// the file untouched. Sizes and counts are asserted, never time.

const P = '/big.xlsx'
const ROWS = 3000
let h: Harness

interface Receipt {
  sheet: string
  range: string
  rows: number
  columns: number
  values: string[][]
  formats?: Record<string, string>
  types?: Record<string, string>
  area?: string
  changed?: number
  note?: string
  truncated?: string
}

const file = () => path.join(h.root, 'big.xlsx')
const sha = () => createHash('sha256').update(readFileSync(file())).digest('hex')
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value))

async function reopen(): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.load(readFileSync(file()) as unknown as ArrayBuffer)
  return wb
}

function sheetXml(name = 'xl/worksheets/sheet1.xml'): string {
  return strFromU8(readPackage(readFileSync(file()))[name]!)
}

/** Data: a header and ROWS rows of (id, name, amount); Small: A1:C3 with a bold header. */
async function writeBook(): Promise<void> {
  const wb = new ExcelJS.Workbook()
  const data = wb.addWorksheet('Data')
  data.addRow(['Id', 'Name', 'Amount'])
  for (let r = 1; r <= ROWS; r++) data.addRow([r, `item ${r}`, r * 1.5 + 1000])
  const small = wb.addWorksheet('Small')
  small.addRows([
    ['a', 'b', 'c'],
    [1, 2, 3],
    [4, 5, 6],
  ])
  for (const c of ['A1', 'B1', 'C1']) small.getCell(c).font = { bold: true }
  await wb.xlsx.writeFile(file())
}

beforeEach(async () => {
  h = await createHarness()
  await writeBook()
}, 60_000)
afterEach(async () => h?.cleanup())

describe('number format on whole columns', () => {
  itSoak(
    'C:C formats every value, sets the column format for new values, returns a bounded receipt, survives a save',
    async () => {
      const receipt = await h.call<Receipt>('set_number_format', {
        path: P,
        sheet: 'Data',
        range: 'C:C',
        format: '#,##0.00',
      })
      expect(receipt).toMatchObject({
        sheet: 'Data',
        range: 'C1:C500',
        rows: 500,
        columns: 1,
        area: 'C:C',
        changed: ROWS + 1,
      })
      expect(receipt.values[1]).toEqual(['1,001.50'])
      expect(receipt.formats?.C500).toBe('#,##0.00')
      expect(Object.keys(receipt.formats ?? {})).toHaveLength(500)
      expect(receipt.note).toBe('columns C:C carry it, so cells filled there later get it too.')
      expect(receipt.truncated).toBe(
        `The receipt lists C1:C500, 500 of the 3,001 cells of C1:C${ROWS + 1} where the change landed; read the rest with get_range C501:C${ROWS + 1}.`,
      )
      expect(jsonBytes(receipt)).toBeLessThan(32 * 1024)

      const typed = await h.call<Receipt>('set_cell_value', {
        path: P,
        sheet: 'Data',
        cell: 'C5000',
        value: 2.5,
      })
      expect(typed).toMatchObject({ values: [['2.50']], formats: { C5000: '#,##0.00' } })
      await h.call('save', { path: P })

      const ws = (await reopen()).getWorksheet('Data')!
      expect(ws.getColumn(3).numFmt).toBe('#,##0.00')
      expect(ws.getCell(`C${ROWS + 1}`).numFmt).toBe('#,##0.00')
      expect(ws.getCell('C5000').numFmt).toBe('#,##0.00')
      expect(ws.getCell('A2').numFmt).toBeUndefined()
      expect(sheetXml()).toMatch(/<col min="3" max="3"[^>]* style="\d+"/)

      await h.newSession()
      const again = await h.call<Receipt>('get_range', { path: P, sheet: 'Data', range: `C${ROWS + 1}` })
      expect(again.values).toEqual([
        [(ROWS * 1.5 + 1000).toLocaleString('en-US', { minimumFractionDigits: 2 })],
      ])
    },
  )

  it('a huge range that is not whole columns formats the cells the sheet holds in it, and says so', async () => {
    const receipt = await h.call<Receipt>('set_number_format', {
      path: P,
      sheet: 'Data',
      range: 'C2:D1048576',
      format: '0.0',
    })
    expect(receipt).toMatchObject({ area: 'C2:D1048576', changed: ROWS, range: 'C2:C501', rows: 500 })
    expect(receipt.note).toBe(
      'only the 3,000 cells of C2:D1048576 that the sheet holds were formatted, the empty ones were left alone; format whole columns (C:D) for values typed there later.',
    )
    expect(jsonBytes(receipt)).toBeLessThan(32 * 1024)
    const last = await h.call<Receipt>('get_range', { path: P, sheet: 'Data', range: `C${ROWS + 1}` })
    expect(last.values).toEqual([[(ROWS * 1.5 + 1000).toFixed(1)]])
  })
})

describe('the limit counts the empty cells a call would fill', () => {
  itSoak(
    'cells the sheet already holds do not count: one row more than A1:C86334 is refused, A1:C86334 passes',
    async () => {
      // Data holds A1:C3001 (9,003 cells). A1:C86334 is 259,002 cells, 249,999 of them empty.
      const error = await h.fail('apply_style', { path: P, sheet: 'Data', range: 'A1:C86335', italic: true })
      expect(error).toContain(
        'A1:C86335 is 259,005 cells, 250,002 of them empty; apply_style works through at most 250,000 empty cells at a time',
      )
      const ok = await h.call('apply_style', { path: P, sheet: 'Data', range: 'A1:C86334', italic: true })
      expect(ok).toEqual({ sheet: 'Data', range: 'A1:C86334', applied: ['italic true'] })
    },
  )
})

describe('clear_range on the whole sheet', () => {
  it('A1:XFD1048576 clears the values of a small sheet, creates no cells and returns a small receipt', async () => {
    const receipt = await h.call<Receipt>('clear_range', { path: P, sheet: 'Small', range: 'A1:XFD1048576' })
    expect(receipt).toEqual({
      sheet: 'Small',
      range: 'A1:C3',
      rows: 3,
      columns: 3,
      values: [
        ['', '', ''],
        ['', '', ''],
        ['', '', ''],
      ],
      types: Object.fromEntries(['A', 'B', 'C'].flatMap((c) => [1, 2, 3].map((r) => [`${c}${r}`, 'empty']))),
      area: 'A:XFD',
      changed: 9,
    })
    expect(jsonBytes(receipt)).toBeLessThan(2 * 1024)
    expect(await h.call('describe_worksheet', { path: P, sheet: 'Small' })).toMatchObject({ usedRange: null })
    await h.call('save', { path: P })
    const ws = (await reopen()).getWorksheet('Small')!
    const cells: string[] = []
    ws.eachRow({ includeEmpty: true }, (row) => {
      row.eachCell({ includeEmpty: true }, (cell) => {
        cells.push(cell.address)
      })
    })
    // Only the bold header cells are left (empty, still bold): nothing was created on the way.
    expect(cells).toEqual(['A1', 'B1', 'C1'])
    expect(ws.getCell('A1').value).toBeNull()
    expect(ws.getCell('A1').font).toMatchObject({ bold: true })
    expect((sheetXml('xl/worksheets/sheet2.xml').match(/<c /g) ?? []).length).toBe(3)
  })

  it('clearing formats of whole columns removes the column format too', async () => {
    await h.call('set_number_format', { path: P, sheet: 'Data', range: 'C:C', format: '0.00' })
    const cleared = await h.call<Receipt>('clear_range', {
      path: P,
      sheet: 'Data',
      range: 'C:C',
      what: 'formats',
    })
    expect(cleared).toMatchObject({ area: 'C:C', changed: ROWS + 1, range: 'C1:C500' })
    expect(cleared.note).toBe('the style of 1 column(s) in C:C was removed.')
    expect(cleared).not.toHaveProperty('formats')
    await h.call('save', { path: P })
    const ws = (await reopen()).getWorksheet('Data')!
    expect(ws.getColumn(3).numFmt).toBeUndefined()
    expect(ws.getCell('C2').value).toBe(1001.5)
  })
})

describe('styles on whole columns and rows', () => {
  it('apply_style on B:B sets a column style and restyles the cells the column holds', async () => {
    const receipt = await h.call('apply_style', { path: P, sheet: 'Data', range: 'B:B', bold: true })
    expect(receipt).toEqual({
      sheet: 'Data',
      range: 'B:B',
      applied: [
        'bold true',
        'columns B:B carry it, so cells filled there later get it too',
        '3,001 existing cells restyled',
      ],
    })
    await h.call('set_cell_value', { path: P, sheet: 'Data', cell: 'B5000', value: 'later' })
    await h.call('save', { path: P })
    const ws = (await reopen()).getWorksheet('Data')!
    expect(ws.getColumn(2).font).toMatchObject({ bold: true })
    expect(ws.getCell('B2').font).toMatchObject({ bold: true })
    expect(ws.getCell('B5000').font).toMatchObject({ bold: true })
    expect(ws.getCell('A2').font?.bold).toBeFalsy()
  })

  it('apply_style on rows sets row styles, also on rows that hold no cell', async () => {
    const receipt = await h.call('apply_style', {
      path: P,
      sheet: 'Small',
      range: '2:5',
      fill_color: '#FFFF00',
    })
    expect(receipt).toEqual({
      sheet: 'Small',
      range: '2:5',
      applied: [
        'fill #FFFF00',
        'rows 2:5 carry it, so cells filled there later get it too',
        '6 existing cells restyled',
      ],
    })
    await h.call('save', { path: P })
    const ws = (await reopen()).getWorksheet('Small')!
    const fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFFF00' } }
    expect(ws.getCell('B2').fill).toMatchObject(fill)
    expect(ws.getRow(5).fill).toMatchObject(fill)
    expect(ws.getRow(1).fill).toBeUndefined()
    expect(sheetXml('xl/worksheets/sheet2.xml')).toMatch(/<row r="5"[^>]* s="\d+"[^>]*customFormat="1"/)
  })

  it('the whole sheet A:XFD is one column run in the file, not 16,384', async () => {
    const receipt = await h.call('apply_style', { path: P, sheet: 'Small', range: 'A:XFD', italic: true })
    expect(receipt).toMatchObject({ range: 'A:XFD' })
    expect((receipt as { applied: string[] }).applied).toContain('9 existing cells restyled')
    await h.call('save', { path: P })
    const cols = sheetXml('xl/worksheets/sheet2.xml').match(/<col /g) ?? []
    expect(cols.length).toBeGreaterThan(0)
    expect(cols.length).toBeLessThanOrEqual(4)
    const ws = (await reopen()).getWorksheet('Small')!
    expect(ws.getColumn(200).font).toMatchObject({ italic: true })
    expect(ws.getCell('A1').font).toMatchObject({ bold: true, italic: true })
  })

  it('a style on one loaded cell leaves the cells that shared its style alone', async () => {
    // exceljs loads A1:C1 of Small with one shared style object; changing it in place would restyle all three.
    await h.call('apply_style', { path: P, sheet: 'Small', range: 'A1', italic: true })
    await h.call('set_number_format', { path: P, sheet: 'Small', range: 'B1', format: '0.0' })
    await h.call('save', { path: P })
    const ws = (await reopen()).getWorksheet('Small')!
    expect(ws.getCell('A1').font).toMatchObject({ bold: true, italic: true })
    expect(ws.getCell('B1').font?.italic).toBeFalsy()
    expect(ws.getCell('C1').font?.italic).toBeFalsy()
    expect(ws.getCell('B1').numFmt).toBe('0.0')
    expect(ws.getCell('A1').numFmt).toBeUndefined()
  })
})

describe('bounded receipts of ordinary writes', () => {
  it('set_range of 900 cells lists the first 498 and names the rest', async () => {
    const values = Array.from({ length: 300 }, (_, r) => [r, `t${r}`, r * 2])
    const receipt = await h.call<Receipt>('set_range', { path: P, sheet: 'Small', start: 'E1', values })
    expect(receipt).toMatchObject({ range: 'E1:G166', rows: 166, columns: 3, area: 'E1:G300', changed: 900 })
    expect(receipt.values[165]).toEqual(['165', 't165', '330'])
    expect(receipt.truncated).toBe(
      'The receipt lists E1:G166, 498 of the 900 cells of E1:G300 where the change landed; read the rest with get_range E167:G300.',
    )
    expect(jsonBytes(receipt)).toBeLessThan(16 * 1024)
  })

  it('areas of up to 500 cells keep the full receipt without summary fields', async () => {
    const receipt = await h.call<Receipt>('set_number_format', {
      path: P,
      sheet: 'Data',
      range: 'C2:C3',
      format: '0',
    })
    expect(receipt).toEqual({
      sheet: 'Data',
      range: 'C2:C3',
      rows: 2,
      columns: 1,
      values: [['1002'], ['1003']],
      formats: { C2: '0', C3: '0' },
    })
  })
})

describe('areas over the limit are refused and the file stays as it was', () => {
  it('cell-by-cell methods refuse more than 250,000 cells, name the limit and write nothing', async () => {
    const before = sha()
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'apply_style',
        { range: 'A1:Z100000', bold: true },
        'A1:Z100000 is 2,600,000 cells, 2,590,997 of them empty',
      ],
      [
        'apply_style',
        { range: '2:1048576', bold: true },
        '2:1048576 is 1,048,575 rows, 1,045,575 of them empty',
      ],
      [
        'merge_cells',
        { range: 'A1:XFD1048576' },
        'A:XFD is 17,179,869,184 cells, 17,179,860,181 of them empty',
      ],
      ['copy_range', { source: 'A2:Z100000', target: 'AA2' }, 'A2:Z100000 is 2,599,974 cells'],
      [
        'add_data_validation',
        { range: 'D2:Z100000', type: 'whole', min: 0 },
        'D2:Z100000 is 2,299,977 cells',
      ],
      ['add_table', { range: 'A1:Z100000' }, 'A1:Z100000 is 2,600,000 cells'],
      [
        'set_number_format',
        { range: 'E2:Z1048576', format: '0.00' },
        'E2:Z1048576 is 23,068,650 cells, 23,068,650',
      ],
    ]
    for (const [method, args, start] of cases) {
      const error = await h.fail(method, { path: P, sheet: 'Data', ...args })
      expect(error, method).toContain(start)
      expect(error, method).toContain(`; ${method} works through at most 250,000 empty`)
      expect(error, method).toContain('nothing was changed')
      expect(error, method).toContain(`Use a smaller range (the used range of Data is A1:C${ROWS + 1})`)
    }
    await h.newSession()
    expect(sha()).toBe(before)
    expect(readdirSync(h.root).filter((f) => f.endsWith('.bak'))).toEqual([])
    const a1 = await h.call<Receipt>('get_range', { path: P, sheet: 'Data', range: 'A1:C2', detailed: true })
    expect(a1.values).toEqual([
      ['Id', 'Name', 'Amount'],
      ['1', 'item 1', '1001.5'],
    ])
    expect(a1).not.toHaveProperty('formats')
  })
})

describe('copy_range counts the cells it adds at the target', () => {
  it('a source full of values is refused when the empty target would gain more than 250,000 cells', async () => {
    const open = await createWorkbook('/copy.xlsx', 'S')
    const ws = open.workbook.worksheets[0]!
    const rows = MAX_AREA_CELLS + 10
    for (let r = 1; r <= rows; r++) ws.getCell(r, 1).value = r
    const source = { top: 1, left: 1, bottom: rows, right: 1 }
    expect(() => copyArea(open, ws, source, ws, { row: 1, col: 2 })).toThrow(
      `B1:B${rows} is 250,010 cells, 250,010 of them empty; copy_range works through at most 250,000 empty cells at a time, so nothing was changed.`,
    )
    expect(ws.findCell(1, 2)).toBeUndefined()
    expect(ws.columnCount).toBe(1)
  })
})
