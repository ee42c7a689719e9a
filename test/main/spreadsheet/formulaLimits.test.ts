import { writeFileSync } from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recalculate } from '../../../src/main/spreadsheet/formulas/formulaEngine'
import { buildFormulaIndex } from '../../../src/main/spreadsheet/formulas/formulaIndex'
import { DEFAULT_CALC_BUDGET, MAX_TEXT_LENGTH } from '../../../src/main/spreadsheet/formulas/formulaLimits'
import { createWorkbook } from '../../../src/main/spreadsheet/workbook/loadWorkbook'
import { createHarness, type Harness } from './harness'

interface Area {
  values: unknown[][]
}

async function generatedWorkbook(file: string, formulas: Record<string, string>): Promise<void> {
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet('S')
  for (const [cell, formula] of Object.entries(formulas)) ws.getCell(cell).value = { formula } as never
  writeFileSync(file, Buffer.from(await wb.xlsx.writeBuffer()))
}

describe('formula text limit', () => {
  let h: Harness
  beforeEach(async () => {
    h = await createHarness()
  })
  afterEach(async () => h.cleanup())

  it('a tiny workbook with REPT("x",2^31) opens, and the cell is #VALUE! instead of 2 GB of text', async () => {
    await generatedWorkbook(path.join(h.root, 'rept.xlsx'), {
      A1: 'REPT("x",2^31)',
      A2: `REPT("x",${MAX_TEXT_LENGTH})`,
      A3: 'A2&"y"',
      A4: 'LEN(A2)',
    })
    await h.call('open', { path: '/rept.xlsx' })
    const area = await h.call<Area>('get_range', { path: '/rept.xlsx', sheet: 'S', range: 'A1:A4' })
    expect(area.values[0]).toEqual(['#VALUE!'])
    expect(area.values[2]).toEqual(['#VALUE!'])
    expect(area.values[3]).toEqual([String(MAX_TEXT_LENGTH)])
  })

  it('set_cell_formula caps nested and growing text functions at 32,767 characters', async () => {
    await h.call('create', { path: '/t.xlsx', sheet: 'S' })
    const cases: [string, string][] = [
      ['REPT(REPT("ab",16000),16000)', '#VALUE!'],
      ['SUBSTITUTE(REPT("a",30000),"a",REPT("b",30000))', '#VALUE!'],
      ['CONCATENATE(REPT("a",20000),REPT("b",20000))', '#VALUE!'],
      ['TEXTJOIN(",",TRUE,REPT("a",20000),REPT("b",20000))', '#VALUE!'],
      ['BASE(1,2,2^31)', '#NUM!'],
      ['LEN(REPT("ab",3))', '6'],
      ['REPT("ab",2.9)', 'abab'],
      ['REPT(TRUE,2)', 'TRUETRUE'],
      ['REPT("a",-1)', '#VALUE!'],
      ['REPT(1/0,3)', '#DIV/0!'],
      ['SUBSTITUTE("a-b-c","-","+")', 'a+b+c'],
    ]
    for (const [formula, shown] of cases) {
      const receipt = await h.call<Area>('set_cell_formula', {
        path: '/t.xlsx',
        sheet: 'S',
        cell: 'A1',
        formula,
      })
      expect({ formula, shown: String(receipt.values[0]![0]) }).toEqual({ formula, shown })
    }
  })
})

describe('formula budget', () => {
  async function sums() {
    const open = await createWorkbook('/b.xlsx', 'S')
    const ws = open.workbook.worksheets[0]!
    for (let r = 1; r <= 100; r++) ws.getCell(r, 1).value = r
    for (let r = 1; r <= 10; r++) ws.getCell(r, 2).value = { formula: 'SUM(A1:A100)' } as never
    return { open, ws }
  }

  it('stops after the cell-read budget with every remaining formula reported, not a crash', async () => {
    const { open } = await sums()
    const budget = { ...DEFAULT_CALC_BUDGET, maxCellReads: 350 }
    const report = recalculate(open.workbook, false, buildFormulaIndex(open.workbook), budget)
    expect(report.calculated).toBe(3)
    expect(report.uncalculated).toHaveLength(7)
    expect(report.uncalculated[0]!.reason).toBe('calculation stopped: formulas read more than 350 cells')
  })

  it('stops when the results hold more text than the budget (many REPT cells in a tiny file)', async () => {
    const open = await createWorkbook('/t.xlsx', 'S')
    const ws = open.workbook.worksheets[0]!
    for (let r = 1; r <= 5; r++) ws.getCell(r, 1).value = { formula: 'REPT("x",60)' } as never
    const budget = { ...DEFAULT_CALC_BUDGET, maxTextChars: 150 }
    const report = recalculate(open.workbook, false, buildFormulaIndex(open.workbook), budget)
    expect(report.calculated).toBe(2)
    expect(report.uncalculated.map((u) => u.cell)).toEqual(['A3', 'A4', 'A5'])
    expect(report.uncalculated[0]!.reason).toBe(
      'calculation stopped: formula results hold more than 150 characters of text',
    )
  })

  it('stops when the time budget runs out (clock injected)', async () => {
    const { open, ws } = await sums()
    let clock = 0
    const budget = { ...DEFAULT_CALC_BUDGET, maxMilliseconds: 1000, now: () => (clock += 300) }
    const report = recalculate(open.workbook, false, buildFormulaIndex(open.workbook), budget)
    expect(report.calculated).toBeLessThan(10)
    expect(report.uncalculated.length).toBe(10 - report.calculated)
    expect(report.uncalculated[0]!.reason).toBe('calculation stopped: it took more than 1 s')
    expect(ws.getCell('B1').result).toBe(5050)
  })
})
