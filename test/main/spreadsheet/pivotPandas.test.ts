import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { strFromU8 } from 'fflate'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { itNeeding } from '../../support/itNeeding'
import { findProgram } from '../../support/requirements'
import { seededRandom } from '../../support/seededRandom'
import { tier } from '../../support/tier'
import { createHarness, type Harness } from './harness'

const REGIONS = ['East', 'West', 'North', 'South', 'Central']
const CATEGORIES = ['Hardware', 'Software', 'Services']
const DAY = 86_400_000
const START = Date.UTC(2024, 0, 1)

type Row = {
  region: string | null
  category: string
  day: string
  amount: number | string | null
  qty: number
}

function generate(ROWS: number): Row[] {
  const random = seededRandom(47)
  const rows: Row[] = []
  for (let i = 0; i < ROWS; i++) {
    const roll = random()
    rows.push({
      region: random() < 0.02 ? null : REGIONS[Math.floor(random() * REGIONS.length)]!,
      category: CATEGORIES[Math.floor(random() * CATEGORIES.length)]!,
      day: new Date(START + Math.floor(random() * 40) * DAY).toISOString().slice(0, 10),
      amount: roll < 0.03 ? 'n/a' : roll < 0.06 ? null : Math.round(random() * 1_000_000) / 100,
      qty: Math.floor(random() * 20),
    })
  }
  return rows
}

const PYTHON = findProgram('pandas')?.split(' ')[0]

/** `rows` rows with blank regions, text in the number column and dates, pivoted by Bureau and by pandas. */
function pandasPivotSuite(ROWS: number, timeout: number): void {
  describe(`a pivot of ${ROWS.toLocaleString('en-US')} rows`, () => {
    let h: Harness
    let rows: Row[]

    beforeAll(async () => {
      h = await createHarness()
      rows = generate(ROWS)
      const wb = new ExcelJS.Workbook()
      const ws = wb.addWorksheet('Data')
      ws.addRow(['Region', 'Category', 'Day', 'Amount', 'Qty'])
      for (const r of rows) ws.addRow([r.region, r.category, new Date(`${r.day}T00:00:00Z`), r.amount, r.qty])
      ws.getColumn(3).numFmt = 'yyyy-mm-dd'
      await wb.xlsx.writeFile(path.join(h.root, 'big.xlsx'))
    }, timeout)
    afterAll(async () => h?.cleanup())

    itNeeding(
      ['pandas'],
      "equals pandas' pivot_table and saves with every record",
      async () => {
        const receipt = await h.call<{ pivot: { location: string; records: number } }>('create_pivot_table', {
          path: '/big.xlsx',
          source: 'Data!A:E',
          target: { sheet: 'Pivot', cell: 'A1' },
          rows: ['Region', 'Day'],
          columns: ['Category'],
          values: [
            { field: 'Amount', summary: 'sum' },
            { field: 'Amount', summary: 'count', name: 'Entries' },
          ],
        })
        expect(receipt.pivot.records).toBe(ROWS)
        // Bureau's cells, read back page by page.
        const grid: string[][] = []
        for (let page: number | undefined = 1; page !== undefined; ) {
          const r: { values: string[][]; nextPage?: number } = await h.call('get_range', {
            path: '/big.xlsx',
            sheet: 'Pivot',
            range: receipt.pivot.location,
            page,
          })
          grid.push(...r.values)
          page = r.nextPage
        }
        // Header rows: 0 captions, 1 categories (first column of each), 2 value names; body; grand total.
        const categories: string[] = []
        for (let c = 2; c < grid[1]!.length; c++) categories.push(grid[1]![c] || categories.at(-1)!)
        const ours = new Map<string, [number, number]>()
        let region = ''
        for (const line of grid.slice(3, -1)) {
          region = line[0] || region
          for (let c = 2; c + 1 < line.length; c += 2) {
            if (categories[c - 2]!.startsWith('Total')) continue
            if (line[c] === '') continue
            ours.set(`${region}|${line[1]}|${categories[c - 2]}`, [Number(line[c]), Number(line[c + 1])])
          }
        }
        const data = path.join(h.root, 'rows.json')
        writeFileSync(data, JSON.stringify(rows))
        const script = path.join(h.root, 'pivot.py')
        writeFileSync(
          script,
          `import json, sys
import pandas as pd
df = pd.DataFrame(json.load(open(sys.argv[1])))
df["region"] = df["region"].fillna("(blank)")
df["number"] = pd.to_numeric(df["amount"].where(df["amount"].map(lambda v: not isinstance(v, str))), errors="coerce")
s = df.pivot_table(index=["region", "day"], columns="category", values="number", aggfunc="sum")
n = df.pivot_table(index=["region", "day"], columns="category", values="amount", aggfunc="count")
out = {}
for (region, day), row in s.iterrows():
    for category, value in row.items():
        count = n.loc[(region, day), category] if category in n.columns else float("nan")
        if pd.isna(value) and pd.isna(count):
            continue
        out[f"{region}|{day}|{category}"] = [0 if pd.isna(value) else float(value), 0 if pd.isna(count) else int(count)]
print(json.dumps({"cells": out, "total": float(df["number"].sum())}))
`,
        )
        const theirs = JSON.parse(
          execFileSync(PYTHON!, [script, data], { encoding: 'utf8', maxBuffer: 64 << 20 }),
        ) as {
          cells: Record<string, [number, number]>
          total: number
        }
        // pandas leaves a cell empty where no row falls; a cell whose rows hold no number sums to 0 in both.
        const expected = Object.entries(theirs.cells).filter(
          ([key]) => ours.has(key) || theirs.cells[key]![1] > 0,
        )
        expect(ours.size).toBeGreaterThan(500)
        expect([...ours.keys()].sort()).toEqual(expected.map(([k]) => k).sort())
        for (const [key, [sum, count]] of expected) {
          const [mySum, myCount] = ours.get(key)!
          expect(myCount, key).toBe(count)
          expect(Math.abs(mySum - sum), key).toBeLessThanOrEqual(Math.abs(sum) * 1e-9 + 1e-6)
        }
        const grand = Number(grid.at(-1)![grid.at(-1)!.length - 2])
        expect(Math.abs(grand - theirs.total)).toBeLessThanOrEqual(Math.abs(theirs.total) * 1e-9)
        await h.call('save', { path: '/big.xlsx' })
        const parts = readPackage(readFileSync(path.join(h.root, 'big.xlsx')))
        const records = Object.keys(parts).find((n) => /pivotCacheRecords\d+\.xml$/.test(n))!
        expect(strFromU8(parts[records]!.subarray(0, 400))).toContain(`count="${ROWS}"`)
      },
      timeout,
    )
  })
}

// npm test checks 5,000 rows against pandas; the soak tier 50,000.
pandasPivotSuite(tier === 'fast' ? 5_000 : 50_000, tier === 'fast' ? 60_000 : 240_000)
