import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { strFromU8 } from 'fflate'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { itNeeding } from '../../support/itNeeding'
import { findProgram } from '../../support/requirements'
import { itFast as it, itWhen, tier } from '../../support/tier'
import { type Harness, harnessWithSheet } from './harness'
import { convert } from './libreOffice'

let h: Harness
const P = '/filter.xlsx'
const S = '/sort.xlsx'
const DATA = [
  ['Region', 'Product', 'Sales'],
  ['North', 'Pens', 120],
  ['South', 'Ink', 80],
  ['East', 'Pens', 300],
  ['North', 'Paper', 45],
  ['West', 'Ink', 150],
  ['South', 'Pens', null],
]
const file = (p: string) => path.join(h.root, p.slice(1))
const sheetXml = (p: string) => strFromU8(readPackage(readFileSync(file(p)))['xl/worksheets/sheet1.xml']!)
const hiddenRows = (xml: string) =>
  [...xml.matchAll(/<row r="(\d+)"[^>]*hidden="1"/g)].map((m) => Number(m[1]))

beforeAll(async () => {
  h = await harnessWithSheet(P, 'Data', DATA)
  await h.call('create', { path: S, sheet: 'Data' })
  await h.call('set_range', {
    path: S,
    sheet: 'Data',
    start: 'A1',
    values: [
      ['Region', 'Sales', 'Note'],
      ['north', 5, 'a'],
      ['South', 'n/a', 'b'],
      ['North', 12, 'c'],
      [null, 7, 'd'],
      ['South', 3, 'e'],
      ['north', 12, 'f'],
      ['East', true, 'g'],
      ['East', null, 'h'],
    ],
  })
})
afterAll(async () => h.cleanup())

describe('set_filter and clear_filter', () => {
  it('refuses bad input before anything changes', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ range: 'A2:C7', criteria: [] }, /no header row: A2 holds text|no header row/],
      [{ range: 'C2:C7' }, /no header row: C2 holds number 120/],
      [{ range: 'A1:C1' }, /needs a header row and at least one row of data/],
      [{ range: 'A1:C7', criteria: [{ column: 'Price', values: ['1'] }] }, /"Price" is neither a header/],
      [{ range: 'A1:C7', criteria: [{ column: 'Sales' }] }, /exactly one of values, operator/],
      [{ range: 'A1:C7', criteria: [{ column: 'C', operator: 'greater_than', value: 'lots' }] }, /not one/],
      [{ range: 'A1:C7', criteria: [{ column: 'C', operator: 'less_than' }] }, /needs a value/],
      [{ range: 'A1:C7', criteria: [{ column: 'Region', top: { count: 2 } }] }, /holds none/],
      [
        {
          range: 'A1:C7',
          criteria: [
            { column: 'A', values: ['x'] },
            { column: 'Region', values: ['y'] },
          ],
        },
        /two criteria/,
      ],
    ]
    for (const [extra, message] of cases)
      expect(await h.fail('set_filter', { path: P, sheet: 'Data', ...extra })).toMatch(message)
    expect(await h.fail('clear_filter', { path: P, sheet: 'Data' })).toMatch(/has no autofilter/)
    await h.call('save', { path: P })
    const xml = sheetXml(P)
    expect(xml).not.toContain('<autoFilter')
    expect(hiddenRows(xml)).toEqual([])
  })

  it('hides the rows that fail, keeps the criteria in the file and again after a reopen and save', async () => {
    const receipt = await h.call('set_filter', {
      path: P,
      sheet: 'Data',
      range: 'A1:C7',
      criteria: [
        { column: 'Region', values: ['north', 'South'] },
        { column: 'C', operator: 'greater_than', value: 50 },
      ],
    })
    expect(receipt).toEqual({
      sheet: 'Data',
      range: 'A1:C7',
      applied: [
        'autofilter on A1:C7 (header row 1)',
        'Region: one of "north", "South"',
        'Sales: greater than 50',
        '2 of 6 data rows shown; hidden: 4, 5, 6, 7',
      ],
    })
    await h.call('save', { path: P })
    const xml = sheetXml(P)
    expect(xml).toContain(
      '<autoFilter ref="A1:C7"><filterColumn colId="0"><filters><filter val="north"/><filter val="South"/></filters></filterColumn><filterColumn colId="2"><customFilters><customFilter operator="greaterThan" val="50"/></customFilters></filterColumn></autoFilter>',
    )
    expect(hiddenRows(xml)).toEqual([4, 5, 6, 7])
    // Read from the file and saved again: the criteria stay.
    await h.newSession()
    await h.call('set_cell_value', { path: P, sheet: 'Data', cell: 'E1', value: 'note' })
    await h.call('save', { path: P })
    expect(sheetXml(P)).toContain('<filterColumn colId="2"><customFilters>')
    expect(hiddenRows(sheetXml(P))).toEqual([4, 5, 6, 7])
  })

  it('top N, text operators and blanks; a new filter replaces the old one and shows its rows again', async () => {
    const top = await h.call<{ applied: string[] }>('set_filter', {
      path: P,
      sheet: 'Data',
      range: 'A1:C7',
      criteria: [{ column: 'Sales', top: { count: 2 } }],
    })
    expect(top.applied.slice(1)).toEqual(['Sales: top 2', '2 of 6 data rows shown; hidden: 2, 3, 5, 7'])
    const text = await h.call<{ applied: string[] }>('set_filter', {
      path: P,
      sheet: 'Data',
      range: 'A1:C7',
      criteria: [{ column: 'Product', operator: 'contains', value: 'EN' }],
    })
    expect(text.applied.at(-1)).toBe('3 of 6 data rows shown; hidden: 3, 5, 6')
    const blanks = await h.call<{ applied: string[] }>('set_filter', {
      path: P,
      sheet: 'Data',
      range: 'A1:C7',
      criteria: [{ column: 'Sales', values: [''] }],
    })
    expect(blanks.applied.at(-1)).toBe('1 of 6 data rows shown; hidden: 2, 3, 4, 5, 6')
    await h.call('save', { path: P })
    expect(sheetXml(P)).toContain('<filterColumn colId="2"><filters blank="1"></filters></filterColumn>')
    const cleared = await h.call('clear_filter', { path: P, sheet: 'Data' })
    expect(cleared).toEqual({
      sheet: 'Data',
      range: 'A1:C7',
      applied: ['autofilter removed from A1:C7', '5 hidden row(s) shown'],
    })
    await h.call('save', { path: P })
    expect(sheetXml(P)).not.toContain('<autoFilter')
    expect(hiddenRows(sheetXml(P))).toEqual([])
    // The state the LibreOffice and openpyxl checks read.
    await h.call('set_filter', {
      path: P,
      sheet: 'Data',
      range: 'A1:C7',
      criteria: [
        { column: 'Product', values: ['Pens'] },
        { column: 'Sales', operator: 'greater_or_equal', value: 100 },
      ],
    })
    await h.call('save', { path: P })
  })
})

describe('sort_range with several keys', () => {
  it('sorts by keys in order, as a spreadsheet: numbers, text, booleans, blanks last; ties keep their order', async () => {
    const r = await h.call('sort_range', {
      path: S,
      sheet: 'Data',
      range: 'A1:C9',
      keys: [{ column: 'Region' }, { column: 'B', descending: true }],
    })
    expect(r).toMatchObject({
      values: [
        ['Region', 'Sales', 'Note'],
        ['East', 'TRUE', 'g'],
        ['East', '', 'h'],
        ['North', '12', 'c'],
        ['north', '12', 'f'],
        ['north', '5', 'a'],
        ['South', 'n/a', 'b'],
        ['South', '3', 'e'],
        ['', '7', 'd'],
      ],
    })
    const bySales = await h.call('sort_range', {
      path: S,
      sheet: 'Data',
      range: 'A2:C9',
      by: 'B',
      has_header: false,
    })
    expect(bySales).toMatchObject({
      values: [
        ['South', '3', 'e'],
        ['north', '5', 'a'],
        ['', '7', 'd'],
        ['North', '12', 'c'],
        ['north', '12', 'f'],
        ['South', 'n/a', 'b'],
        ['East', 'TRUE', 'g'],
        ['East', '', 'h'],
      ],
    })
    expect(
      await h.fail('sort_range', {
        path: S,
        sheet: 'Data',
        range: 'A1:C9',
        by: 'A',
        keys: [{ column: 'B' }],
      }),
    ).toMatch(/either by .* or keys/)
    expect(
      await h.fail('sort_range', { path: S, sheet: 'Data', range: 'A1:C9', keys: [{ column: 'Price' }] }),
    ).toMatch(/"Price" is not a column letter/)
    await h.call('save', { path: S })
  })
})

const PYTHON = findProgram('openpyxl')?.split(' ')[0]

itWhen(tier === 'fast', itNeeding)(
  ['openpyxl'],
  "Debian's openpyxl reads the filter's criteria",
  async () => {
    const script = path.join(h.root, 'filter.py')
    writeFileSync(
      script,
      [
        'import json, sys, openpyxl',
        'ws = openpyxl.load_workbook(sys.argv[1])["Data"]',
        'f = ws.auto_filter',
        'cols = [[c.colId, c.filters.filter if c.filters else None, [(x.operator, x.val) for x in c.customFilters.customFilter] if c.customFilters else None] for c in f.filterColumn]',
        'print(json.dumps({"ref": f.ref, "cols": cols, "hidden": [r for r, d in ws.row_dimensions.items() if d.hidden]}))',
      ].join('\n'),
    )
    const out = JSON.parse(execFileSync(PYTHON!, [script, file(P)], { encoding: 'utf8' }))
    expect(out).toEqual({
      ref: 'A1:C7',
      cols: [
        [1, ['Pens'], null],
        [2, null, [['greaterThanOrEqual', '100']]],
      ],
      hidden: [3, 5, 6, 7],
    })
  },
)

itWhen(tier === 'soak', itNeeding)(
  ['soffice'],
  'LibreOffice opens a filtered and a sorted workbook and keeps the filter',
  async () => {
    const [F2, S2] = ['/lo-filter.xlsx', '/lo-sort.xlsx']
    for (const p of [F2, S2]) {
      await h.call('create', { path: p, sheet: 'Data' })
      await h.call('set_range', { path: p, sheet: 'Data', start: 'A1', values: DATA })
    }
    await h.call('set_filter', {
      path: F2,
      sheet: 'Data',
      range: 'A1:C7',
      criteria: [
        { column: 'Product', values: ['Pens'] },
        { column: 'Sales', operator: 'greater_or_equal', value: 100 },
      ],
    })
    await h.call('sort_range', {
      path: S2,
      sheet: 'Data',
      range: 'A1:C7',
      keys: [{ column: 'Sales', descending: true }],
    })
    for (const p of [F2, S2]) await h.call('save', { path: p })
    const out = path.join(h.root, 'lo')
    mkdirSync(out)
    await convert([file(F2), file(S2)], 'ods', out)
    const content = (name: string) =>
      strFromU8(readPackage(readFileSync(path.join(out, name)))['content.xml']!)
    const filtered = content('lo-filter.ods')
    expect(filtered).toMatch(/<table:database-range[^>]*table:target-range-address="Data\.A1:Data\.C7"/)
    expect(filtered).toContain(
      '<table:filter-and><table:filter-condition table:value="Pens" table:operator="=" table:field-number="1"/><table:filter-condition table:value="100" table:operator="&gt;=" table:field-number="2"/></table:filter-and>',
    )
    const sorted = content('lo-sort.ods')
    const order = ['300', '150', '120', '80', '45'].map((n) => sorted.indexOf(`<text:p>${n}</text:p>`))
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true)
  },
  120_000,
)
