import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { strFromU8 } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { itNeeding } from '../../support/itNeeding'
import { findProgram } from '../../support/requirements'
import { type Harness, harnessWithSheet } from './harness'

let h: Harness
const P = '/cf.xlsx'
const at = { path: P, sheet: 'Data' }
beforeAll(async () => {
  h = await harnessWithSheet(P, 'Data', [
    ['Name', 'Sales', 'Note'],
    ['Ann', 120, 'late order'],
    ['Bob', 80, 'ok'],
    ['Ann', 300, 'late'],
    ['Cid', 45, 'fine'],
  ])
})
afterAll(async () => h.cleanup())

const RULES: [Record<string, unknown>, string][] = [
  [{ range: 'A2:C5', rule: 'formula', formula: '=$B2>100' }, 'formula =$B2>100'],
  [{ range: 'B2:B5', rule: 'top_bottom', rank: 2, bottom: true }, 'bottom 2'],
  [{ range: 'B2:B5', rule: 'average', below: true, font_color: '#9C0006' }, 'below average'],
  [{ range: 'A2:A5', rule: 'duplicates' }, 'formula =AND(A2<>"",COUNTIF($A$2:$A$5,A2)>1)'],
  [{ range: 'C2:C5', rule: 'text_contains', text: 'late' }, 'text contains "late"'],
  [{ range: 'B2:B5', rule: 'data_bar', color: '#5B9BD5' }, 'dataBar'],
  [{ range: 'B2:B5', rule: 'icon_set', icon_set: '3Arrows' }, 'icon set 3Arrows'],
]

describe('conditional formats', () => {
  it('adds each rule with a receipt naming it as stored, and lists them', async () => {
    for (const [i, [args, stored]] of RULES.entries()) {
      const r = await h.call<{ applied: string[]; range: string }>('add_conditional_format', {
        ...at,
        ...args,
      })
      expect(r.range).toBe(args.range)
      expect(r.applied.at(-1)).toBe(`stored as rule ${i + 1}: ${stored}`)
    }
    const listed = await h.call<{ rules: { index: number; range: string; type: string }[] }>(
      'list_conditional_formats',
      at,
    )
    expect(listed.rules.map((r) => [r.index, r.range, r.type])).toEqual([
      [1, 'A2:C5', 'expression'],
      [2, 'B2:B5', 'top10'],
      [3, 'B2:B5', 'aboveAverage'],
      [4, 'A2:A5', 'expression'],
      [5, 'C2:C5', 'containsText'],
      [6, 'B2:B5', 'dataBar'],
      [7, 'B2:B5', 'iconSet'],
    ])
  })

  it('refuses bad rules and deletions; nothing changes', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ range: 'A2:A5', rule: 'formula' }, /needs formula/],
      [{ range: 'A2:A5', rule: 'formula', formula: '=Nowhere!A1>1' }, /Nowhere/],
      [{ range: 'A2:A5', rule: 'text_contains' }, /needs text/],
      [{ range: 'B2:B5', rule: 'top_bottom', rank: 0 }, /rank is a whole number/],
      [{ range: 'B2:B5', rule: 'top_bottom', rank: 150, percent: true }, /to 100 with percent/],
    ]
    for (const [args, message] of cases)
      expect(await h.fail('add_conditional_format', { ...at, ...args })).toMatch(message)
    expect(await h.fail('delete_conditional_format', { ...at, index: 9 })).toMatch(
      /has 7 rule\(s\): no rule 9/,
    )
    expect(await h.fail('delete_conditional_format', { ...at, range: 'D1:D2' })).toMatch(/no rule on D1:D2/)
    expect(await h.fail('delete_conditional_format', at)).toMatch(/either index or range/)
    const listed = await h.call<{ rules: unknown[] }>('list_conditional_formats', at)
    expect(listed.rules).toHaveLength(7)
  })

  it('the rules survive a save and reopen; delete by index or by range', async () => {
    await h.call('save', { path: P })
    const sheet = strFromU8(
      readPackage(readFileSync(path.join(h.root, 'cf.xlsx')))['xl/worksheets/sheet1.xml']!,
    )
    // The text attribute is what LibreOffice and Excel's dialog read; the formula is what Excel evaluates.
    expect(sheet).toMatch(/<cfRule type="containsText"[^>]* operator="containsText" text="late">/)
    await h.newSession()
    expect((await h.call<{ rules: unknown[] }>('list_conditional_formats', at)).rules).toHaveLength(7)
    const one = await h.call('delete_conditional_format', { ...at, index: 2 })
    expect(one).toEqual({
      sheet: 'Data',
      range: 'B2:B5',
      applied: ['deleted rule 2 on B2:B5: bottom 2', '6 rule(s) left'],
    })
    const byRange = await h.call<{ applied: string[] }>('delete_conditional_format', {
      ...at,
      range: 'c2:c5',
    })
    expect(byRange.applied).toEqual(['deleted rule 4 on C2:C5: text contains "late"', '5 rule(s) left'])
    await h.call('save', { path: P })
    await h.newSession()
    const listed = await h.call<{ rules: { type: string }[] }>('list_conditional_formats', at)
    expect(listed.rules.map((r) => r.type)).toEqual([
      'expression',
      'aboveAverage',
      'expression',
      'dataBar',
      'iconSet',
    ])
  })
})

const PYTHON = findProgram('openpyxl')?.split(' ')[0]

itNeeding(['openpyxl'], "Debian's openpyxl reads the conditional formats", async () => {
  const script = path.join(h.root, 'cf.py')
  writeFileSync(
    script,
    [
      'import json, sys, openpyxl',
      'ws = openpyxl.load_workbook(sys.argv[1])["Data"]',
      'out = []',
      'for cf in ws.conditional_formatting:',
      '    for r in cf.rules:',
      '        out.append([str(cf.sqref), r.type, r.formula[0] if r.formula else None, r.aboveAverage, r.iconSet.iconSet if r.iconSet else None])',
      'print(json.dumps(sorted(out, key=lambda x: (x[0], x[1]))))',
    ].join('\n'),
  )
  const out = JSON.parse(execFileSync(PYTHON!, [script, path.join(h.root, 'cf.xlsx')], { encoding: 'utf8' }))
  expect(out).toEqual([
    ['A2:A5', 'expression', 'AND(A2<>"",COUNTIF($A$2:$A$5,A2)>1)', null, null],
    ['A2:C5', 'expression', '$B2>100', null, null],
    ['B2:B5', 'aboveAverage', null, false, null],
    ['B2:B5', 'dataBar', null, null, null],
    ['B2:B5', 'iconSet', null, null, '3Arrows'],
  ])
})
