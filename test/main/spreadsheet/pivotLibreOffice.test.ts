import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { strFromU8, strToU8, zipSync } from 'fflate'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { describeNeeding } from '../../support/requirements'
import { describeWhen, tier } from '../../support/tier'
import { createHarness, type Harness } from './harness'
import { convert } from './libreOffice'

const P = '/lo-pivot.xlsx'
let h: Harness
let out: string
let bureau: string[][] = []
let twoLevel: string[][] = []
let lo: string[][] = []
let lo2: string[][] = []

const REGIONS = ['East', 'West', 'North', 'South']
const PRODUCTS = ['Pens', 'Ink', 'Paper']

/** 300 rows with blanks, text in the number column and dates. */
function rows(): (string | number | null)[][] {
  const out: (string | number | null)[][] = [['Region', 'Product', 'Day', 'Amount', 'Units']]
  for (let i = 0; i < 300; i++) {
    const amount = i % 37 === 0 ? 'n/a' : i % 23 === 0 ? null : ((i * 7919) % 1000) / 4
    out.push([
      REGIONS[i % 4]!,
      i % 29 === 0 ? null : PRODUCTS[(i * 7) % 3]!,
      `2024-0${1 + (i % 3)}-0${1 + (i % 2)}`,
      amount,
      (i * 31) % 9,
    ])
  }
  return out
}

/** The numbers of a computed table, sorted: the same multiset whatever the captions and order. */
function numbers(grid: string[][]): number[] {
  return grid
    .flat()
    .map((v) => v.replace(/,/g, '').trim())
    .filter((v) => v !== '' && Number.isFinite(Number(v)))
    .map((v) => Math.round(Number(v) * 1000) / 1000)
    .sort((a, b) => a - b)
}

function blankSheetData(file: string, target: string, sheets: string[]): void {
  const parts = readPackage(readFileSync(file))
  for (const sheet of sheets) {
    const xml = strFromU8(parts[sheet]!)
    expect(xml).toMatch(/<sheetData>[\s\S]*<c r="A2"/)
    parts[sheet] = strToU8(xml.replace(/<sheetData>[\s\S]*<\/sheetData>/, '<sheetData/>'))
  }
  writeFileSync(target, zipSync(parts))
}

// LibreOffice recomputing both pivots takes seconds: the soak tier runs it; npm test checks them against pandas.
describeWhen(tier === 'soak', describeNeeding)(
  ['soffice'],
  'LibreOffice opens and recomputes the pivot tables Bureau writes',
  () => {
    beforeAll(async () => {
      h = await createHarness()
      out = path.join(h.root, 'lo-out')
      mkdirSync(out)
      await h.call('create', { path: P, sheet: 'Data' })
      await h.call('set_range', { path: P, sheet: 'Data', start: 'A1', values: rows() })
      const one = await h.call<{ values: string[][] }>('create_pivot_table', {
        path: P,
        source: 'Data!A1:E301',
        target: { sheet: 'Pivot', cell: 'A1' },
        rows: ['Region'],
        columns: ['Product'],
        values: [{ field: 'Amount', summary: 'sum' }],
      })
      bureau = one.values
      const two = await h.call<{ values: string[][] }>('create_pivot_table', {
        path: P,
        source: 'Data!A1:E301',
        target: { sheet: 'Pivot2', cell: 'A1' },
        rows: ['Region', 'Day'],
        values: [
          { field: 'Amount', summary: 'sum' },
          { field: 'Units', summary: 'max' },
        ],
      })
      twoLevel = two.values
      await h.call('save', { path: P })
      // Without the computed cells: whatever LibreOffice shows there, it computed itself.
      blankSheetData(path.join(h.root, 'lo-pivot.xlsx'), path.join(h.root, 'blank.xlsx'), [
        'xl/worksheets/sheet2.xml',
        'xl/worksheets/sheet3.xml',
      ])
      // One LibreOffice run: its .xlsx holds the cells it computed and the pivot tables it kept.
      await convert(path.join(h.root, 'blank.xlsx'), 'xlsx', out)
      copyFileSync(path.join(out, 'blank.xlsx'), path.join(h.root, 'resaved.xlsx'))
      lo = await shown('Pivot')
      lo2 = await shown('Pivot2')
    }, 240_000)
    afterAll(async () => h?.cleanup())

    async function shown(sheet: string): Promise<string[][]> {
      const r = await h.call<{ values: string[][] }>('get_range', {
        path: '/resaved.xlsx',
        sheet,
        range: 'A1:Z80',
      })
      return r.values
    }

    it("LibreOffice's own pivot computation gives Bureau's numbers", () => {
      expect(numbers(lo).length).toBeGreaterThan(10)
      expect(numbers(lo)).toEqual(numbers(bureau))
      expect(numbers(lo2)).toEqual(numbers(twoLevel))
    })

    it('the row labels LibreOffice shows are those Bureau wrote', () => {
      const labels = (grid: string[][]) => grid.map((r) => r[0] ?? '').filter((v) => REGIONS.includes(v))
      expect(labels(lo)).toEqual(labels(bureau))
      expect(labels(bureau)).toEqual(['East', 'North', 'South', 'West'])
    })

    it('LibreOffice saves them back as pivot tables', () => {
      const parts = readPackage(readFileSync(path.join(out, 'blank.xlsx')))
      const tables = Object.keys(parts).filter((n) => /pivotTables\/pivotTable\d+\.xml$/.test(n))
      expect(tables).toHaveLength(2)
      const xml = tables.map((n) => strFromU8(parts[n]!)).join('')
      expect(xml).toContain('name="Sum of Amount"')
      expect(xml).toContain('name="Max of Units"')
    })
  },
)
