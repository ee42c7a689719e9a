import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { itNeeding } from '../../support/itNeeding'
import { findProgram } from '../../support/requirements'
import { createHarness, type Harness, harnessWithSheet } from './harness'

let h: Harness
const P = '/find.xlsx'
beforeEach(async () => {
  h = await harnessWithSheet(P, 'Data', [
    ['Region', 'Sales'],
    ['N. America', 2023],
    ['n. america west', 10],
    ['Europe', '=B2+B3'],
  ])
  await h.call('add_sheet', { path: P, sheet: 'Notes' })
  await h.call('set_range', { path: P, sheet: 'Notes', start: 'A1', values: [['N. America'], ['=Data!B4']] })
})
afterEach(async () => h.cleanup())

interface Changed {
  sheet: string
  cell: string
  before: string
  after: string
  shown: string
}
interface Receipt {
  changed: number
  scope: string
  cells: Changed[]
}

describe('find_replace', () => {
  it('replaces across the workbook, ignoring case, and lists each changed cell read back', async () => {
    const r = await h.call<Receipt>('find_replace', { path: P, find: 'n. america', replace: 'North America' })
    expect(r.scope).toBe('workbook')
    expect(r.changed).toBe(3)
    expect(r.cells).toEqual([
      { sheet: 'Data', cell: 'A2', before: 'N. America', after: 'North America', shown: 'North America' },
      {
        sheet: 'Data',
        cell: 'A3',
        before: 'n. america west',
        after: 'North America west',
        shown: 'North America west',
      },
      { sheet: 'Notes', cell: 'A1', before: 'N. America', after: 'North America', shown: 'North America' },
    ])
    const range = await h.call<{ values: string[][] }>('get_range', {
      path: P,
      sheet: 'Data',
      range: 'A2:A3',
    })
    expect(range.values).toEqual([['North America'], ['North America west']])
  })

  it('match_case and whole_cell narrow the match; a sheet limits the scope; numbers stay numbers', async () => {
    const cased = await h.call<Receipt>('find_replace', {
      path: P,
      sheet: 'Data',
      find: 'N. America',
      replace: 'NA',
      match_case: true,
      whole_cell: true,
    })
    expect(cased.cells.map((c) => `${c.sheet}!${c.cell}`)).toEqual(['Data!A2'])
    const number = await h.call<Receipt>('find_replace', {
      path: P,
      sheet: 'Data',
      find: '2023',
      replace: '2024',
    })
    expect(number.cells).toEqual([
      { sheet: 'Data', cell: 'B2', before: '2023', after: '2024', shown: '2024' },
    ])
    const sum = await h.call<{ values: string[][]; types?: Record<string, string> }>('get_range', {
      path: P,
      sheet: 'Data',
      range: 'B2:B4',
      detailed: true,
    })
    expect(sum.values).toEqual([['2024'], ['10'], ['2034']])
    expect(sum.types).toBeUndefined()
  })

  it('in=formulas rewrites formulas and recomputes them; values mode leaves formulas alone', async () => {
    const none = await h.call<Receipt>('find_replace', { path: P, find: 'B3', replace: 'B2' })
    expect(none.changed).toBe(0)
    const r = await h.call<Receipt>('find_replace', {
      path: P,
      sheet: 'Data',
      find: 'B3',
      replace: 'B2',
      in: 'formulas',
    })
    expect(r.cells).toEqual([{ sheet: 'Data', cell: 'B4', before: 'B2+B3', after: 'B2+B2', shown: '4046' }])
    const notes = await h.call<{ values: string[][] }>('get_range', { path: P, sheet: 'Notes', range: 'A2' })
    expect(notes.values).toEqual([['4046']])
  })

  it('a replacement that breaks a formula is refused and nothing changes', async () => {
    const error = await h.fail('find_replace', {
      path: P,
      find: 'Data!',
      replace: 'Missing!',
      in: 'formulas',
    })
    expect(error).toMatch(/Missing/)
    const bad = await h.fail('find_replace', { path: P, find: '+', replace: '+(', in: 'formulas' })
    expect(bad).toBeTruthy()
    const range = await h.call<{ formulas?: Record<string, string> }>('get_range', {
      path: P,
      sheet: 'Notes',
      range: 'A2',
      detailed: true,
    })
    expect(range.formulas).toEqual({ A2: '=Data!B4' })
    const data = await h.call<{ formulas?: Record<string, string> }>('get_range', {
      path: P,
      sheet: 'Data',
      range: 'B4',
      detailed: true,
    })
    expect(data.formulas).toEqual({ B4: '=B2+B3' })
    expect(await h.fail('find_replace', { path: P, range: 'A1:A3', find: 'x', replace: 'y' })).toMatch(
      /range needs sheet/,
    )
  })
})

const PYTHON = findProgram('openpyxl')?.split(' ')[0]

itNeeding(['openpyxl'], "Debian's openpyxl reads the replaced cells", async () => {
  h = await createHarness()
  await h.call('create', { path: P, sheet: 'Data' })
  await h.call('set_range', { path: P, sheet: 'Data', start: 'A1', values: [['old name'], ['=LEN("old")']] })
  await h.call('find_replace', { path: P, find: 'old', replace: 'new' })
  await h.call('find_replace', { path: P, find: 'old', replace: 'newer', in: 'formulas' })
  await h.call('save', { path: P })
  const script = path.join(h.root, 'read.py')
  writeFileSync(
    script,
    'import json, sys, openpyxl\nws = openpyxl.load_workbook(sys.argv[1])["Data"]\nprint(json.dumps([ws["A1"].value, ws["A2"].value]))\n',
  )
  const out = JSON.parse(
    execFileSync(PYTHON!, [script, path.join(h.root, 'find.xlsx')], { encoding: 'utf8' }),
  )
  expect(out).toEqual(['new name', '=LEN("newer")'])
})
