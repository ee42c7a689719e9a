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
const P = '/charts.xlsx'
const file = () => path.join(h.root, 'charts.xlsx')

function chartParts(bytes: Uint8Array): string[] {
  const parts = readPackage(bytes)
  return Object.keys(parts)
    .filter((n) => /^xl\/charts\/chart\d+\.xml$/.test(n))
    .sort((a, b) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0]))
    .map((n) => strFromU8(parts[n]!))
}

beforeAll(async () => {
  h = await harnessWithSheet(P, 'Data', [
    ['Month', 'North', 'South'],
    ['Jan', 120, 80],
    ['Feb', 150, 95],
    ['Mar', 90, 130],
    ['Apr', 160, 110],
  ])
  const base = { path: P, sheet: 'Data', data_range: 'A1:C5' }
  await h.call('add_chart', {
    ...base,
    type: 'column',
    title: 'Sales',
    x_axis_title: 'Month',
    y_axis_title: 'Units',
    legend: 'top',
    grouping: 'stacked',
    gap_width: 80,
    data_labels: 'value',
    anchor: 'E1',
  })
  await h.call('add_chart', {
    ...base,
    type: 'line',
    title: 'Trend',
    trendline: 'linear',
    markers: true,
    legend: 'none',
    anchor: 'E20',
  })
  await h.call('add_chart', {
    ...base,
    data_range: 'A1:B5',
    type: 'doughnut',
    title: 'Share',
    data_labels: 'percent',
    anchor: 'N1',
  })
  await h.call('save', { path: P })
}, 60_000)
afterAll(async () => h?.cleanup())

describe('add_chart options reach the chart parts', () => {
  it('column: stacked, gap, axis titles, legend on top, value labels', () => {
    const [column] = chartParts(readFileSync(file()))
    expect(column).toContain('<c:grouping val="stacked"/>')
    expect(column).toContain('<c:overlap val="100"/>')
    expect(column).toContain('<c:gapWidth val="80"/>')
    expect(column).toContain('<c:legendPos val="t"/>')
    expect(column).toMatch(/<c:catAx>[\s\S]*<c:title>[\s\S]*<a:t>Month<\/a:t>[\s\S]*<\/c:catAx>/)
    expect(column).toMatch(/<c:valAx>[\s\S]*<a:t>Units<\/a:t>[\s\S]*<\/c:valAx>/)
    expect(column).toContain('<c:showVal val="1"/>')
  })

  it('line: trendline, markers, no legend; doughnut: percent labels', () => {
    const [, line, doughnut] = chartParts(readFileSync(file()))
    expect(line).toContain('<c:trendlineType val="linear"/>')
    expect(line).toContain('<c:symbol val="circle"/>')
    expect(line).not.toContain('<c:legend>')
    expect(doughnut).toContain('<c:doughnutChart>')
    expect(doughnut).toContain('<c:showPercent val="1"/>')
  })

  it('describe_worksheet lists the three charts with their types and titles', async () => {
    const d = await h.call<{ charts: { type: string; title?: string }[] }>('describe_worksheet', {
      path: P,
      sheet: 'Data',
    })
    expect(d.charts.map((c) => [c.type, c.title])).toEqual([
      ['column', 'Sales'],
      ['line', 'Trend'],
      ['doughnut', 'Share'],
    ])
  })

  it('a chart on text data is refused and nothing is added', async () => {
    const error = await h.fail('add_chart', { path: P, sheet: 'Data', type: 'bar', data_range: 'A1:A5' })
    expect(error).toMatch(/needs a header row, a category column and at least one series/)
    const d = await h.call<{ charts: unknown[] }>('describe_worksheet', { path: P, sheet: 'Data' })
    expect(d.charts).toHaveLength(3)
  })
})

const PYTHON = findProgram('openpyxl')?.split(' ')[0]

itWhen(tier === 'fast', itNeeding)(['openpyxl'], "Debian's openpyxl reads the chart options", () => {
  const script = path.join(h.root, 'charts.py')
  writeFileSync(
    script,
    `import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
out = []
for c in wb["Data"]._charts:
    def text(t):
        return "".join(r.t for p in t.tx.rich.p for r in (p.r or [])) if t is not None and t.tx is not None and t.tx.rich is not None else None
    out.append({
        "kind": c.tagname, "title": text(c.title), "series": len(c.series),
        "legend": c.legend.position if c.legend is not None else None,
        "grouping": getattr(c, "grouping", None),
        "x": text(c.x_axis.title) if hasattr(c, "x_axis") and c.x_axis is not None else None,
        "y": text(c.y_axis.title) if hasattr(c, "y_axis") and c.y_axis is not None else None,
        "trend": c.series[0].trendline.trendlineType if getattr(c.series[0], "trendline", None) is not None else None,
    })
print(json.dumps(out))
`,
  )
  const out = JSON.parse(execFileSync(PYTHON!, [script, file()], { encoding: 'utf8' }))
  expect(out).toMatchObject([
    { kind: 'barChart', title: 'Sales', series: 2, legend: 't', grouping: 'stacked', x: 'Month', y: 'Units' },
    { kind: 'lineChart', title: 'Trend', series: 2, legend: null, trend: 'linear' },
    { kind: 'doughnutChart', title: 'Share', series: 1 },
  ])
})

// A LibreOffice round trip takes seconds: the soak tier runs it.
itWhen(tier === 'soak', itNeeding)(
  ['soffice'],
  'a LibreOffice round trip keeps the series, titles and axis titles',
  async () => {
    const out = path.join(h.root, 'lo')
    mkdirSync(out)
    await convert(file(), 'xlsx', out)
    const charts = chartParts(readFileSync(path.join(out, 'charts.xlsx')))
    expect(charts).toHaveLength(3)
    const all = charts.join('\n')
    for (const title of ['Sales', 'Trend', 'Share', 'Month', 'Units']) expect(all).toContain(`>${title}<`)
    const series = charts.map((c) => (c.match(/<c:ser>/g) ?? []).length).sort()
    expect(series).toEqual([1, 2, 2])
    expect(all).toContain('<c:doughnutChart>')
    expect(all).toContain('<c:trendlineType val="linear"/>')
  },
  180_000,
)
