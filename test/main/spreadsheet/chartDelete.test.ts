import { readFileSync } from 'node:fs'
import path from 'node:path'
import { strFromU8 } from 'fflate'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { type Harness, harnessWithSheet } from './harness'

let h: Harness
const P = '/del.xlsx'

function savedCharts(): string[] {
  const parts = readPackage(readFileSync(path.join(h.root, 'del.xlsx')))
  const drawing = Object.keys(parts).find((n) => /^xl\/drawings\/drawing\d+\.xml$/.test(n))
  const frames = drawing ? (strFromU8(parts[drawing]!).match(/<xdr:cNvPr [^>]*name="([^"]*)"/g) ?? []) : []
  return frames.map((f) => /name="([^"]*)"/.exec(f)![1]!)
}

beforeEach(async () => {
  h = await harnessWithSheet(P, 'Data', [
    ['Month', 'Sales'],
    ['Jan', 10],
    ['Feb', 20],
  ])
  for (const title of ['One', 'Two'])
    await h.call('add_chart', { path: P, sheet: 'Data', type: 'column', data_range: 'A1:B3', title })
})
afterEach(async () => h.cleanup())

it('delete_chart removes a saved chart by number and a new one by title', async () => {
  await h.call('save', { path: P })
  await h.newSession()
  await h.call('add_chart', { path: P, sheet: 'Data', type: 'pie', data_range: 'A1:B3', title: 'Three' })
  const first = await h.call<{ applied: string[] }>('delete_chart', { path: P, sheet: 'Data', chart: 1 })
  expect(first.applied).toEqual(['deleted column chart "One" (number 1 of 3)'])
  const second = await h.call<{ applied: string[] }>('delete_chart', {
    path: P,
    sheet: 'Data',
    chart: 'three',
  })
  expect(second.applied).toEqual(['deleted pie chart "Three" (number 2 of 2)'])
  const d = await h.call<{ charts: { title?: string }[] }>('describe_worksheet', { path: P, sheet: 'Data' })
  expect(d.charts.map((c) => c.title)).toEqual(['Two'])
  await h.call('save', { path: P })
  expect(savedCharts()).toEqual(['Two'])
  const parts = readPackage(readFileSync(path.join(h.root, 'del.xlsx')))
  expect(Object.keys(parts).filter((n) => /^xl\/charts\/chart\d+\.xml$/.test(n))).toHaveLength(1)
})

it('delete_chart refuses an unknown chart and changes nothing', async () => {
  expect(await h.fail('delete_chart', { path: P, sheet: 'Data', chart: 3 })).toMatch(
    /has no chart 3; its charts: 1: column "One", 2: column "Two"/,
  )
  expect(await h.fail('delete_chart', { path: P, sheet: 'Data', chart: 'Sales' })).toMatch(
    /no chart .* is titled "Sales"/,
  )
  await h.call('save', { path: P })
  expect(savedCharts()).toEqual(['One', 'Two'])
})
