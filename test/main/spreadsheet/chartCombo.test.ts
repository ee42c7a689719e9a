import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { strFromU8 } from 'fflate'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { readChart } from '../../../src/main/preview/sheet/charts'
import { describeChartXml } from '../../../src/main/spreadsheet/charts/chartRead'
import { chartPartXml } from '../../../src/main/spreadsheet/charts/chartXml'
import { updateChartXml } from '../../../src/main/spreadsheet/charts/updateChart'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { itNeeding } from '../../support/itNeeding'
import { findProgram } from '../../support/requirements'
import { itFast as it, itWhen, tier } from '../../support/tier'
import { type Harness, harnessWithSheet } from './harness'
import { convert } from './libreOffice'

const data = {
  categories: [],
  categoryNumbers: [],
  series: [
    {
      name: 'Sales',
      nameRef: 'Data!$B$1',
      valuesRef: 'Data!$B$2:$B$4',
      values: [1, 2, 3],
      categoriesRef: 'Data!$A$2:$A$4',
      categories: ['a', 'b', 'c'],
    },
    { name: 'Margin', valuesRef: 'Other!$C$2:$C$4', values: [0.1, 0.2, 0.3], secondary: true },
  ],
}

describe('chart XML', () => {
  it('a combo has a column and a line group on two axis pairs; the secondary value axis crosses at max', () => {
    const xml = chartPartXml('combo', data, 'Combo', { secondaryAxisTitle: 'Margin %' })
    expect(xml).toMatch(
      /<c:barChart>[\s\S]*<c:axId val="500000001"\/><c:axId val="500000002"\/><\/c:barChart>/,
    )
    expect(xml).toMatch(
      /<c:lineChart>[\s\S]*<c:axId val="500000003"\/><c:axId val="500000004"\/><\/c:lineChart>/,
    )
    expect(xml).toMatch(
      /<c:valAx><c:axId val="500000004"\/>[\s\S]*<c:axPos val="r"\/>[\s\S]*Margin %[\s\S]*<c:crossAx val="500000003"\/><c:crosses val="max"\/>/,
    )
    expect(xml).toContain('<c:f>Data!$A$2:$A$4</c:f>')
    expect(xml).toContain('<c:f>Other!$C$2:$C$4</c:f>')
    expect(xml).toContain('<c:tx><c:v>Margin</c:v></c:tx>')
    expect(describeChartXml(xml)[0]).toBe(
      'combo chart "Combo" with 2 series: Sales (column, Data!$B$2:$B$4 by Data!$A$2:$A$4), Margin (line, Other!$C$2:$C$4, secondary axis)',
    )
  })

  it('update keeps unknown elements and rewrites only what changed', () => {
    const base = chartPartXml('column', { ...data, series: [data.series[0]!] }, 'Old', {})
    const custom = base
      .replace(
        '<c:roundedCorners val="0"/>',
        '<c:roundedCorners val="0"/><c:extLst><c:ext uri="{X}"><keep/></c:ext></c:extLst>',
      )
      .replace('<c:plotVisOnly', '<c:unknownThing val="7"/><c:plotVisOnly')
    const next = updateChartXml(custom, { title: 'New', options: { legend: 'top', dataLabels: 'value' } })
    expect(next).toContain('<c:ext uri="{X}"><keep/></c:ext>')
    expect(next).toContain('<c:unknownThing val="7"/>')
    expect(next).toContain('<a:t>New</a:t>')
    expect(next).not.toContain('>Old<')
    expect(next).toContain('<c:legendPos val="t"/>')
    expect(next).toContain('<c:showVal val="1"/>')
    const combo = updateChartXml(next, { type: 'combo', options: {}, addSeries: [data.series[1]!] })
    expect(combo).toContain('<c:ext uri="{X}"><keep/></c:ext>')
    expect(describeChartXml(combo)[0]).toMatch(/^combo chart "New" with 2 series: Sales \(column/)
    expect(() => updateChartXml(next, { options: { dataLabels: 'percent' } })).toThrow(/percent data labels/)
  })
})

let h: Harness
const P = '/combo.xlsx'
const file = () => path.join(h.root, 'combo.xlsx')
const chartParts = () => {
  const parts = readPackage(readFileSync(file()))
  return Object.keys(parts)
    .filter((n) => /^xl\/charts\/chart\d+\.xml$/.test(n))
    .sort()
    .map((n) => strFromU8(parts[n]!))
}

beforeAll(async () => {
  h = await harnessWithSheet(P, 'Data', [
    ['Month', 'Sales', 'Note', 'Margin'],
    ['Jan', 120, 'x', 0.1],
    ['Feb', 150, 'y', 0.2],
    ['Mar', 90, 'z', 0.15],
  ])
  await h.call('add_chart', {
    path: P,
    sheet: 'Data',
    type: 'combo',
    title: 'Sales and margin',
    series: [
      { name_ref: 'Data!B1', values: 'Data!B2:B4', categories: 'Data!A2:A4' },
      { name: 'Margin', values: 'D2:D4', secondary_axis: true, type: 'line' },
    ],
    secondary_y_axis_title: 'Margin',
    line_style: 'dashed',
    anchor: 'F1',
  })
  await h.call('save', { path: P })
}, 120_000)
afterAll(async () => h?.cleanup())

describe('add_chart and update_chart through the toolset', () => {
  it('bad series are refused with a clear error and the saved workbook is untouched', async () => {
    const before = statSync(file()).mtimeMs
    const base = { path: P, sheet: 'Data', type: 'line' }
    expect(await h.fail('add_chart', { ...base, series: [{ values: 'Data!C2:C4' }] })).toMatch(
      /hold no numbers \(text only\)/,
    )
    expect(await h.fail('add_chart', { ...base, series: [{ values: 'Data!H2:H4' }] })).toMatch(
      /the range is empty/,
    )
    expect(await h.fail('add_chart', { ...base, series: [{ values: 'Nope!B2:B4' }] })).toMatch(
      /sheet "Nope" does not exist/,
    )
    expect(
      await h.fail('add_chart', { ...base, series: [{ values: 'B2:B4', categories: 'A2:A3' }] }),
    ).toMatch(/categories A2:A3 have 2 cells but values B2:B4 have 3/)
    expect(await h.fail('update_chart', { path: P, sheet: 'Data', chart: 1, remove_series: [5] })).toMatch(
      /no series 5/,
    )
    const d = await h.call<{ charts: { type: string }[] }>('describe_worksheet', { path: P, sheet: 'Data' })
    expect(d.charts.map((c) => c.type)).toEqual(['combo'])
    expect(statSync(file()).mtimeMs).toBe(before)
  })

  it('the saved combo keeps both groups, and update_chart changes the saved chart', async () => {
    const [saved] = chartParts()
    expect(saved).toContain('<c:barChart>')
    expect(saved).toContain('<c:lineChart>')
    expect(saved).toContain('<a:prstDash val="dash"/>')
    const r = await h.call<{ applied: string[] }>('update_chart', {
      path: P,
      sheet: 'Data',
      chart: 'Sales and margin',
      title: 'Q1',
      y_axis_title: 'Units',
      legend: 'right',
      trendline: 'linear',
    })
    expect(r.applied[0]).toMatch(/^chart 1 of 1: combo chart "Q1" with 2 series: Sales \(column/)
    expect(r.applied).toContain('y axis title "Units"')
    await h.call('save', { path: P })
    const [updated] = chartParts()
    expect(updated).toContain('<a:t>Q1</a:t>')
    expect(updated).toContain('<c:trendlineType val="linear"/>')
    expect(updated).toContain('<c:legendPos val="r"/>')
  })
})

const PYTHON = findProgram('openpyxl')?.split(' ')[0]

itWhen(tier === 'fast', itNeeding)(
  ['openpyxl'],
  "Debian's openpyxl loads the combo chart and reads its column group",
  () => {
    const script = path.join(h.root, 'combo.py')
    writeFileSync(
      script,
      `import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
c = wb["Data"]._charts[0]
print(json.dumps({"kind": c.tagname, "series": len(c.series), "more": [m.tagname for m in c._charts[1:]] if hasattr(c, "_charts") else None}))
`,
    )
    const out = JSON.parse(execFileSync(PYTHON!, [script, file()], { encoding: 'utf8' }))
    expect(out.kind).toBe('barChart')
    expect(out.series).toBe(1)
  },
)

itWhen(tier === 'soak', itNeeding)(
  ['soffice'],
  'LibreOffice round trip keeps the combo series and titles',
  async () => {
    const out = path.join(h.root, 'lo')
    mkdirSync(out)
    await convert(file(), 'xlsx', out)
    const all = strFromU8(readFileSync(path.join(out, 'combo.xlsx')))
    const parts = readPackage(readFileSync(path.join(out, 'combo.xlsx')))
    const chart = Object.keys(parts)
      .filter((n) => /^xl\/charts\/chart\d+\.xml$/.test(n))
      .map((n) => strFromU8(parts[n]!))
      .join('')
    expect(all.length).toBeGreaterThan(0)
    expect(chart).toContain('<c:barChart>')
    expect(chart).toContain('<c:lineChart>')
    expect((chart.match(/<c:ser>/g) ?? []).length).toBe(2)
    // The soak tier runs no fast test, so the chart is as add_chart made it.
    expect(chart).toContain('Sales and margin')
  },
  180_000,
)

describe('the preview reads a combo', () => {
  it('gives each series its kind and marks the secondary one', () => {
    const chart = readChart(chartPartXml('combo', data, 'Combo', {})).chart!
    expect(chart.type).toBe('column')
    expect(chart.series.map((s) => [s.name, s.type, s.secondary])).toEqual([
      ['Sales', undefined, undefined],
      ['Margin', 'line', true],
    ])
    expect(chart.categories).toEqual(['a', 'b', 'c'])
  })
})
