import { writeFileSync } from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness'

interface Area {
  values: unknown[][]
}

describe('errors through text functions', () => {
  let h: Harness
  beforeEach(async () => {
    h = await createHarness()
  })
  afterEach(async () => h.cleanup())

  it('an error argument of a text function is the result, as in Excel, not the length of its text', async () => {
    const cases: [string, string][] = [
      ['LEN(1/0)', '#DIV/0!'],
      ['LEN(REPT("ab",20000))', '#VALUE!'],
      ['LEN(NA())', '#N/A'],
      ['LEN("abc")', '3'],
      ['LEN(TRUE)', '4'],
      ['UPPER(1/0)', '#DIV/0!'],
      ['LOWER(NA())', '#N/A'],
      ['PROPER(1/0)', '#DIV/0!'],
      ['TRIM(1/0)', '#DIV/0!'],
      ['CLEAN(1/0)', '#DIV/0!'],
      ['LEFT(1/0,1)', '#DIV/0!'],
      ['LEFT("abc",1/0)', '#DIV/0!'],
      ['RIGHT(1/0,1)', '#DIV/0!'],
      ['MID(1/0,1,1)', '#DIV/0!'],
      ['MID("abc",1/0,1)', '#DIV/0!'],
      ['REPLACE(1/0,1,1,"x")', '#DIV/0!'],
      ['SUBSTITUTE(1/0,"a","b")', '#DIV/0!'],
      ['SUBSTITUTE("abc","a",1/0)', '#DIV/0!'],
      ['FIND("a",1/0)', '#DIV/0!'],
      ['SEARCH("a",1/0)', '#DIV/0!'],
      ['EXACT(1/0,"a")', '#DIV/0!'],
      ['CODE(1/0)', '#DIV/0!'],
      ['TEXT(1/0,"0")', '#DIV/0!'],
      ['CONCATENATE("a",1/0)', '#DIV/0!'],
      ['CONCAT("a",NA())', '#N/A'],
      ['TEXTJOIN(",",TRUE,"a",1/0)', '#DIV/0!'],
      ['"a"&1/0', '#DIV/0!'],
      ['REPT(1/0,2)', '#DIV/0!'],
      ['LEN(UPPER(1/0))', '#DIV/0!'],
      ['UPPER("abc")', 'ABC'],
      ['LEFT("abc",2)', 'ab'],
    ]
    const wb = new ExcelJS.Workbook()
    const ws = wb.addWorksheet('S')
    cases.forEach(([formula], i) => {
      ws.getCell(i + 1, 1).value = { formula } as never
    })
    writeFileSync(path.join(h.root, 'e.xlsx'), Buffer.from(await wb.xlsx.writeBuffer()))
    await h.call('open', { path: '/e.xlsx' })
    const area = await h.call<Area>('get_range', {
      path: '/e.xlsx',
      sheet: 'S',
      range: `A1:A${cases.length}`,
    })
    const wrong = cases
      .map(([formula, shown], i) => ({ formula, shown, got: String(area.values[i]![0]) }))
      .filter(({ shown, got }) => got !== shown)
      .map(({ formula, shown, got }) => `${formula}: ${got}, expected ${shown}`)
    expect(wrong).toEqual([])
  }, 30_000)
})
