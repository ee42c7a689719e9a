import { createHash } from 'node:crypto'
import { copyFileSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCliInProcess } from '../../support/inProcessCli'
import { itNeeding } from '../../support/itNeeding'
import { tempDirs } from '../../support/tempDir'
import { XLSX_CORPUS, xlsxCorpusDir } from './xlsxCorpus'

// The built `bureau tool spreadsheet ...` command: one-shot calls work because pending changes are saved
// when the session ends; a stdin session keeps the workbook open between lines.
const dirs = tempDirs('bureau-sheet-cli-')
let workspace = ''

beforeAll(async () => {
  workspace = await dirs.make()
})
afterAll(() => dirs.cleanup())

const tool = (...args: string[]) =>
  runCliInProcess(['tool', '--workspace', workspace, 'spreadsheet', ...args])

describe('bureau tool spreadsheet', () => {
  it('one-shot calls create, write and read a workbook', async () => {
    expect((await tool('create', '/a.xlsx', '--sheet', 'Sales')).code).toBe(0)
    const set = await tool(
      'set_range',
      '/a.xlsx',
      'Sales',
      'A1',
      '[["Item","Qty"],["Pens",3],["Ink","=B2*2"]]',
    )
    expect(set.code).toBe(0)
    expect(JSON.parse(set.stdout)).toMatchObject({
      range: 'A1:B3',
      values: [
        ['Item', 'Qty'],
        ['Pens', '3'],
        ['Ink', '6'],
      ],
      formulas: { B3: '=B2*2' },
    })
    const read = await tool('get_range', '/a.xlsx', 'Sales', 'B3', '--detailed')
    expect(JSON.parse(read.stdout)).toMatchObject({ values: [['6']], formulas: { B3: '=B2*2' } })
    const bad = await tool('describe_worksheet', '/a.xlsx', 'Nope')
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('Sheet "Nope" not found; sheets: Sales')
  })

  it('a stdin session keeps the workbook open and saves at the end', async () => {
    const input = [
      'create /b.xlsx',
      'set_cell_value /b.xlsx Sheet1 A1 5',
      'set_cell_formula /b.xlsx Sheet1 A2 "=A1*3"',
      '',
    ]
      .map((l) => (l ? `spreadsheet ${l}` : l))
      .join('\n')
    const run = await runCliInProcess(['tool', '--workspace', workspace], { input })
    expect(run.code).toBe(0)
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { ok: boolean; value: { values?: string[][] } })
    expect(lines.map((l) => l.ok)).toEqual([true, true, true])
    expect(lines[2]!.value.values).toEqual([['15']])
    const check = await tool('get_range', '/b.xlsx', 'Sheet1', 'A1:A2')
    expect(JSON.parse(check.stdout).values).toEqual([['5'], ['15']])
  })

  itNeeding([XLSX_CORPUS], 'an invalid workbook gives a clear error and stays untouched', async () => {
    const target = path.join(workspace, 'broken.xlsx')
    copyFileSync(path.join(xlsxCorpusDir, 'exceljs/invalid-xml.xlsx'), target)
    const before = createHash('sha256').update(readFileSync(target)).digest('hex')
    const run = await tool('set_cell_value', '/broken.xlsx', 'Sheet1', 'A1', '1')
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /\/broken\.xlsx is not a readable \.xlsx workbook: .+ is not well-formed XML\. The file was left untouched\./,
    )
    expect(run.stderr).not.toContain(workspace)
    expect(createHash('sha256').update(readFileSync(target)).digest('hex')).toBe(before)
  })
})
