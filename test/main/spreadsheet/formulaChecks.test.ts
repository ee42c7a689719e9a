import { readFileSync } from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FormulaChecker } from '../../../src/main/spreadsheet/formulas/checkFormula'
import { forEngine } from '../../../src/main/spreadsheet/formulas/engineFormula'
import { slideFormula } from '../../../src/main/spreadsheet/formulas/formulaRefs'
import { createHarness, type Harness } from './harness'

const P = '/book.xlsx'
let h: Harness
let file: string

/** A real workbook written by exceljs: Sales (header + 4 rows) and Lists. */
async function writeBook(target: string): Promise<void> {
  const wb = new ExcelJS.Workbook()
  const sales = wb.addWorksheet('Sales')
  sales.addRows([
    ['Region', 'Q1', 'Q2'],
    ['North', 100, 10],
    ['South', 200, 20],
    ['East', 300, 30],
    ['West', 400, 40],
  ])
  // Cached result deliberately wrong: opening must compute it through the $-column workaround.
  sales.getCell('E1').value = { formula: 'SUM($B:$B)', result: 0 } as ExcelJS.CellValue
  const lists = wb.addWorksheet('Lists')
  lists.addRows([['Open'], ['Closed'], ['Parked']])
  await wb.xlsx.writeFile(target)
}

beforeEach(async () => {
  h = await createHarness()
  file = path.join(h.root, 'book.xlsx')
  await writeBook(file)
  await h.call('open', { path: P })
})
afterEach(async () => h.cleanup())

/** Nothing changed in memory (close saves nothing) and the file is byte for byte what it was. */
async function expectUntouched(before: Buffer): Promise<void> {
  const closed = await h.call<{ saved: unknown }>('close', { path: P })
  expect(closed.saved).toBeNull()
  expect(readFileSync(file).equals(before)).toBe(true)
}

/** The tool layer prefixes errors with "spreadsheet_<method> failed: ". */
async function refusal(method: string, args: Record<string, unknown>): Promise<string> {
  const error = await h.fail(method, args)
  expect(error).toMatch(new RegExp(`^spreadsheet_${method} failed: `))
  return error.replace(/^spreadsheet_\w+ failed: /, '')
}

const APOSTROPHE = "To store the text itself, start it with an apostrophe ('=...)."

describe('formulas are checked before anything is written', () => {
  const refusals: [string, string, string][] = [
    ['unparsable', '=SUM(A2:A5', 'Formula "=SUM(A2:A5" in D2 does not parse: missing ")" at the end.'],
    [
      'DDE link',
      "=cmd|' /C calc'!A0",
      `Formula "=cmd|' /C calc'!A0" in D2 is a DDE link to another program (program|topic!item); Bureau does not write those.`,
    ],
    [
      'external workbook',
      '=[Book.xlsx]Sheet1!A1',
      'Formula "=[Book.xlsx]Sheet1!A1" in D2 refers to another workbook; only references inside this workbook can be written.',
    ],
    [
      'external workbook, quoted with a path',
      "='C:\\data\\[Book.xlsx]Sheet1'!A1*2",
      'in D2 refers to another workbook',
    ],
    [
      'structured table reference',
      '=SUM(Table1[Q1])',
      'Formula "=SUM(Table1[Q1])" in D2 uses a table reference (Table1[...), which the formula engine cannot read; use the cell range instead (e.g. B2:B20).',
    ],
    [
      'column outside the sheet',
      '=XFE1+1',
      'Formula "=XFE1+1" in D2 refers to a cell outside the sheet (the last cell is XFD1048576).',
    ],
    ['row outside the sheet', '=SUM(A1:A1048577)', 'in D2 refers to a cell outside the sheet'],
    [
      'missing sheet',
      '=Nope!A1*2',
      'Formula "=Nope!A1*2" in D2 refers to sheet "Nope", which does not exist; sheets: Sales, Lists.',
    ],
  ]

  it.each(refusals)(
    'refuses a formula that is %s, names the cell and writes nothing',
    async (_, value, why) => {
      const before = readFileSync(file)
      const error = await refusal('set_cell_value', { path: P, sheet: 'Sales', cell: 'D2', value })
      expect(error).toContain(why)
      expect(error).toMatch(/Nothing was written\.$/)
      const cell = await h.call('get_range', { path: P, sheet: 'Sales', range: 'D2', detailed: true })
      expect(cell).toMatchObject({ values: [['']], types: { D2: 'empty' } })
      await expectUntouched(before)
    },
  )

  it('a broken formula gets the apostrophe hint; one for the wrong workbook does not', async () => {
    const broken = await refusal('set_cell_value', { path: P, sheet: 'Sales', cell: 'D2', value: '=1+' })
    expect(broken).toBe(
      `Formula "=1+" in D2 does not parse: it ends after "1+" where a value or reference is expected. ${APOSTROPHE} Nothing was written.`,
    )
    const elsewhere = await refusal('set_cell_value', {
      path: P,
      sheet: 'Sales',
      cell: 'D2',
      value: '=Nope!A1',
    })
    expect(elsewhere).not.toContain('apostrophe')
  })

  it('a set_range batch with one bad formula writes none of its cells', async () => {
    const before = readFileSync(file)
    const error = await refusal('set_range', {
      path: P,
      sheet: 'Sales',
      start: 'A2',
      values: [
        ['Changed', 1, '=B2*2'],
        ['Also', 2, '=SUM(B2:B3'],
      ],
    })
    expect(error).toBe(
      `Formula "=SUM(B2:B3" in C3 does not parse: missing ")" at the end. ${APOSTROPHE} Nothing was written.`,
    )
    const shown = await h.call('get_range', { path: P, sheet: 'Sales', range: 'A2:C3' })
    expect(shown.values).toEqual([
      ['North', '100', '10'],
      ['South', '200', '20'],
    ])
    await expectUntouched(before)
  })

  it('lists the first three bad cells of a batch and counts the rest', async () => {
    const error = await refusal('set_range', {
      path: P,
      sheet: 'Sales',
      start: 'F1',
      values: [['=(1', '=ok()', '=(2', '=(3', '=(4', '=(5']],
    })
    expect(error).toContain('Formula "=(1" in F1 does not parse')
    expect(error).toContain('Formula "=(2" in H1 does not parse')
    expect(error).toContain('Formula "=(3" in I1 does not parse')
    expect(error).not.toContain('in J1')
    expect(error).toMatch(
      / 2 more formula\(s\) in this call cannot be written either\. Nothing was written\.$/,
    )
  })

  it('append_rows and set_cell_formula refuse the same way; set_cell_formula asks for a corrected formula', async () => {
    const before = readFileSync(file)
    const appended = await refusal('append_rows', {
      path: P,
      sheet: 'Sales',
      rows: [['Total', '=SUM(B2:B5)', '=SUM(C2:C5']],
    })
    expect(appended).toContain('Formula "=SUM(C2:C5" in C6 does not parse')
    const formula = await refusal('set_cell_formula', {
      path: P,
      sheet: 'Sales',
      cell: 'b6',
      formula: 'SUM(B2:B5;C2)',
    })
    expect(formula).toBe(
      'Formula "=SUM(B2:B5;C2)" in B6 does not parse: unexpected ";" after "SUM(B2:B5" (separate arguments with commas). Correct the formula and try again. Nothing was written.',
    )
    expect(await refusal('set_cell_formula', { path: P, sheet: 'Sales', cell: 'B6', formula: '=' })).toBe(
      'Formula "=" in B6 is empty. Nothing was written.',
    )
    await expectUntouched(before)
  })

  it('a leading apostrophe stores the formula text itself, through a save', async () => {
    const receipt = await h.call('set_range', {
      path: P,
      sheet: 'Sales',
      start: 'F1',
      values: [["'=SUM(", '=B2*2', "'=cmd|' /C calc'!A0"]],
    })
    expect(receipt).toEqual({
      sheet: 'Sales',
      range: 'F1:H1',
      rows: 1,
      columns: 3,
      values: [['=SUM(', '200', "=cmd|' /C calc'!A0"]],
      formulas: { G1: '=B2*2' },
      types: { F1: 'text', H1: 'text' },
    })
    await h.call('save', { path: P })
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.readFile(file)
    const ws = wb.getWorksheet('Sales')!
    expect(ws.getCell('F1').value).toBe('=SUM(')
    expect(ws.getCell('H1').value).toBe("=cmd|' /C calc'!A0")
    expect(ws.getCell('G1').formula).toBe('B2*2')
  })

  it('a formula calling a function the engine lacks is written and listed as uncalculated', async () => {
    const receipt = await h.call('set_cell_value', {
      path: P,
      sheet: 'Sales',
      cell: 'F2',
      value: '=FOOBAR(B2)+1',
    })
    expect(receipt).toMatchObject({
      formulas: { F2: '=FOOBAR(B2)+1' },
      uncalculated: { F2: 'function FOOBAR is not supported' },
    })
    await h.call('save', { path: P })
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.readFile(file)
    expect(wb.getWorksheet('Sales')!.getCell('F2').formula).toBe('FOOBAR(B2)+1')
  })

  it('conditional-format values and validation sources are checked too', async () => {
    const before = readFileSync(file)
    const cf = await refusal('add_conditional_format', {
      path: P,
      sheet: 'Sales',
      range: 'B2:B5',
      rule: 'cell_value',
      operator: 'between',
      value: 10,
      value2: '=AVERAGE(B2:B5',
    })
    expect(cf).toBe(
      'Formula "=AVERAGE(B2:B5" in value2 does not parse: missing ")" at the end. Correct the formula and try again. Nothing was written.',
    )
    const dv = await refusal('add_data_validation', {
      path: P,
      sheet: 'Sales',
      range: 'D2:D5',
      type: 'list',
      source: 'Choices!A1:A3',
    })
    expect(dv).toContain('Formula "=Choices!A1:A3" in source refers to sheet "Choices", which does not exist')
    await expectUntouched(before)
    await h.call('open', { path: P })
    const ok = await h.call('add_data_validation', {
      path: P,
      sheet: 'Sales',
      range: 'D2:D5',
      type: 'list',
      source: '=Lists!$A$1:$A$3',
    })
    expect(ok).toEqual({ sheet: 'Sales', range: 'D2:D5', applied: ['list from =Lists!$A$1:$A$3'] })
    const rule = await h.call('add_conditional_format', {
      path: P,
      sheet: 'Sales',
      range: 'B2:B5',
      rule: 'cell_value',
      operator: 'greater_than',
      value: '=AVERAGE($B$2:$B$5)',
    })
    expect(rule.applied).toEqual([
      'highlight cells greater than AVERAGE($B$2:$B$5) with fill #FFC7CE',
      'stored as rule 1: cell value greaterThan AVERAGE($B$2:$B$5)',
    ])
  })

  it('copy_range refuses a target past the sheet edge and turns references pushed off the sheet into #REF!', async () => {
    const error = await refusal('copy_range', { path: P, sheet: 'Sales', source: 'A1:C2', target: 'XFC1' })
    expect(error).toBe('the copy at XFC1:XFE2 would reach past the last row or column of the sheet')
    expect(slideFormula('A1048576+B1', 1, 0)).toBe('#REF!+B2')
    expect(slideFormula('XFD1*2', 0, 1)).toBe('#REF!*2')
    expect(slideFormula('$A$1048576+XFC1', 1, 1)).toBe('$A$1048576+XFD2')
  })
})

describe('whole columns and rows with $ compute (one rewrite for checker and engine)', () => {
  it('opening recomputes a $-column formula written by exceljs', async () => {
    const shown = await h.call('get_range', { path: P, sheet: 'Sales', range: 'E1', detailed: true })
    expect(shown).toMatchObject({ values: [['1000']], formulas: { E1: '=SUM($B:$B)' } })
    expect(shown).not.toHaveProperty('uncalculated')
  })

  it('$A:$A, A:$B, $2:$3 and 1e3 formulas give the same results as without $', async () => {
    const receipt = await h.call('set_range', {
      path: P,
      sheet: 'Lists',
      start: 'C1',
      values: [
        [
          '=SUM(Sales!$B:$B)',
          '=SUM(Sales!B:$C)',
          '=SUM(Sales!$2:$3)',
          '=COUNTA($A:$A)',
          '=MAX(Sales!$C:C)*1e3',
          '=SUM(Sales!$B$2:$B$3)',
        ],
      ],
    })
    expect(receipt).toMatchObject({ values: [['1000', '1100', '330', '3', '40000', '300']] })
    expect(receipt).not.toHaveProperty('uncalculated')
    expect(receipt.formulas).toMatchObject({ C1: '=SUM(Sales!$B:$B)', G1: '=MAX(Sales!$C:C)*1e3' })
  })

  it('forEngine rewrites only what the engine misreads, never text or quoted sheet names', () => {
    expect(forEngine('SUM($A:$B)+SUM(A:$C)+SUM($1:$2)')).toBe('SUM(A:B)+SUM(A:C)+SUM(1:2)')
    expect(forEngine('SUM($A$1:$B$2)+C$3')).toBe('SUM($A$1:$B$2)+C$3')
    expect(forEngine('1e5+2.5E3+A1*1E+2')).toBe('1e+5+2.5E+3+A1*1E+2')
    expect(forEngine('"1e5 $A:$A"&\'Q 1e5\'!A1')).toBe('"1e5 $A:$A"&\'Q 1e5\'!A1')
    expect(forEngine('SUM(Q1e5:Q1e6)')).toBe('SUM(Q1e5:Q1e6)')
  })
})

describe('FormulaChecker lets valid spreadsheet formulas through', () => {
  const checker = new FormulaChecker(['Sales', 'My Data', "O'Brien"])
  const where = { sheet: 'Sales', label: 'A1' }
  it.each([
    "'My Data'!A1+'O''Brien'!B2",
    'sales!a1',
    "SUM('My Data'!$A:$A)",
    '"a|b"&"[x]"&"Table1[Q1]"',
    'IFERROR(VLOOKUP(A2,\'My Data\'!A:B,2,FALSE),"")',
    '1e5+1.5E-3',
    '{1,2;3,4}',
    'SUM(A1,)',
    'NOSUCHFUNCTION(A1)',
    '_xlfn.XLOOKUP(A1,B:B,C:C)',
    'MyDefinedName*2',
    'INDIRECT("Nope!A1")',
    '#N/A',
    'A1:XFD1048576',
  ])('accepts %s', (formula) => {
    expect(checker.refusal(formula, where, 'text')).toBeUndefined()
  })

  it('explains an unclosed quote and a stray closing parenthesis', () => {
    expect(checker.refusal('"open', where, 'formula')).toBe(
      'Formula "="open" in A1 does not parse: the text in quotes at the start is not closed with ". Correct the formula and try again.',
    )
    expect(checker.refusal('SUM(1,2))', where, 'formula')).toContain('unexpected ")" after "SUM(1,2)"')
  })
})
