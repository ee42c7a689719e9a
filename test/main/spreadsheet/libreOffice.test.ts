import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { strFromU8, strToU8, zipSync } from 'fflate'
import { afterAll, beforeAll, expect } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { describeNeeding } from '../../support/requirements'
import { itFast as it, itSoak } from '../../support/tier'
import { createHarness, type Harness } from './harness'
import { CSV_ALL_SHEETS, convert, parseCsv } from './libreOffice'

const P = '/lo.xlsx'
let h: Harness
let out: string
const receipts: Record<string, string[][]> = {}
const SHEETS = ['Sales', 'Summary', 'After']
let refusal = ''

describeNeeding(['soffice'], 'LibreOffice reads what the receipts say', () => {
  beforeAll(async () => {
    h = await createHarness()
    out = path.join(h.root, 'lo-out')
    mkdirSync(out)
    await h.call('create', { path: P, sheet: 'Sales' })
    await h.call('set_range', {
      path: P,
      sheet: 'Sales',
      start: 'A1',
      values: [
        ['Month', 'North', 'South', 'Share', 'Closed'],
        ['Jan', 1200, 800.5, '=B2/(B2+C2)', true],
        ['Feb', 1500, 950, '=B3/(B3+C3)', false],
        ['Mar', 900, 1300, '=B4/(B4+C4)', true],
        ['Total', '=SUM(B2:B4)', '=SUM(C2:C4)', '=B5/(B5+C5)', '=COUNTIF(E2:E4,TRUE)'],
      ],
    })
    await h.call('set_number_format', { path: P, sheet: 'Sales', range: 'B2:C5', format: '$#,##0.00' })
    await h.call('set_number_format', { path: P, sheet: 'Sales', range: 'D2:D5', format: '0.0%' })
    await h.call('add_sheet', { path: P, sheet: 'Summary' })
    await h.call('set_range', {
      path: P,
      sheet: 'Summary',
      start: 'A1',
      values: [
        ['Best month', '=INDEX(Sales!A2:A4,MATCH(MAX(Sales!B2:B4),Sales!B2:B4,0))'],
        ['Grand total', '=Sales!B5+Sales!C5'],
        ['Report date', '2024-03-31'],
        ['Label', '=UPPER(LEFT(Sales!A2,3))&"-"&TEXT(Sales!B2,"0000")'],
        ['Rounded', '=ROUND(Sales!C2/3,2)'],
      ],
    })
    // A refused batch first (nothing of it may reach the file), then $-column formulas and apostrophe text.
    await h.call('add_sheet', { path: P, sheet: 'After' })
    refusal = await h.fail('set_range', {
      path: P,
      sheet: 'After',
      start: 'A2',
      values: [['Broken', '=SUM(B1:B2', "=cmd|' /C calc'!A0"]],
    })
    await h.call('set_range', {
      path: P,
      sheet: 'After',
      start: 'A1',
      values: [['=SUM(Sales!$B:$B)', '=SUM($3:$4)', "'=SUM(", '=1e3*2'], [], [5, 7]],
    })
    await h.call('add_chart', {
      path: P,
      sheet: 'Sales',
      type: 'column',
      data_range: 'A1:C4',
      title: 'Revenue by month',
      anchor: 'G2',
    })
    await h.call('add_chart', {
      path: P,
      sheet: 'Summary',
      type: 'pie',
      data_range: 'A1:B2',
      title: 'Pie check',
    })
    await h.call('save', { path: P })
    for (const sheet of SHEETS) {
      const r = await h.call<{ values: string[][] }>('get_range', { path: P, sheet, range: 'A1:E5' })
      receipts[sheet] = r.values
    }
    // A copy whose cached total is wrong: LibreOffice must show the right one, so it computes itself.
    const parts = readPackage(readFileSync(path.join(h.root, 'lo.xlsx')))
    const sheet1 = strFromU8(parts['xl/worksheets/sheet1.xml']!)
    expect(sheet1).toContain('<f>SUM(B2:B4)</f><v>3600</v>')
    parts['xl/worksheets/sheet1.xml'] = strToU8(
      sheet1.replace('<f>SUM(B2:B4)</f><v>3600</v>', '<f>SUM(B2:B4)</f><v>1</v>'),
    )
    writeFileSync(path.join(h.root, 'tampered.xlsx'), zipSync(parts))
    await convert([path.join(h.root, 'lo.xlsx'), path.join(h.root, 'tampered.xlsx')], CSV_ALL_SHEETS, out)
  }, 180_000)
  afterAll(async () => h?.cleanup())

  it('every sheet converts to CSV with the same display values, formula results included', () => {
    for (const sheet of SHEETS) {
      const csv = parseCsv(readFileSync(path.join(out, `lo-${sheet}.csv`), 'utf8'))
      const width = receipts[sheet]![0]!.length
      const fromLo = receipts[sheet]!.map((_, r) =>
        Array.from({ length: width }, (_, c) => csv[r]?.[c] ?? ''),
      )
      expect(fromLo, sheet).toEqual(receipts[sheet])
    }
    expect(receipts.Sales![4]).toEqual(['Total', '$3,600.00', '$3,050.50', '54.1%', '2'])
    // LibreOffice recalculated rather than reading our cached values.
    expect(parseCsv(readFileSync(path.join(out, 'tampered-Sales.csv'), 'utf8'))[4]?.[1]).toBe('$3,600.00')
    expect(receipts.Summary!.map((r) => r[1])).toEqual([
      'Feb',
      '$6,650.50',
      '2024-03-31',
      'JAN-1200',
      '266.83',
    ])
  })

  it('a workbook saved after a refused batch opens with the receipts values and no trace of the refused row', () => {
    expect(refusal).toContain('Formula "=SUM(B1:B2" in B2 does not parse')
    expect(refusal).toContain('Formula "=cmd|\' /C calc\'!A0" in C2 is a DDE link')
    // The CSV comparison above checks that LibreOffice shows these same values for this sheet.
    expect(receipts.After!.slice(0, 3)).toEqual([
      ['7200', '12', '=SUM(', '2000', ''],
      ['', '', '', '', ''],
      ['5', '7', '', '', ''],
    ])
  })

  itSoak(
    'a chart from add_chart opens in LibreOffice: it survives LibreOffice re-saving and renders to PDF',
    async () => {
      await convert(path.join(h.root, 'lo.xlsx'), 'pdf', out)
      const pdf = path.join(out, 'lo.pdf')
      expect(statSync(pdf).size).toBeGreaterThan(5_000)
      const text = execFileSync('/usr/bin/pdftotext', [pdf, '-']).toString()
      expect(text).toContain('Revenue by month')
      mkdirSync(path.join(out, 'resaved'))
      await convert(path.join(h.root, 'lo.xlsx'), 'xlsx', path.join(out, 'resaved'))
      const parts = readPackage(readFileSync(path.join(out, 'resaved', 'lo.xlsx')))
      const charts = Object.keys(parts)
        .filter((n) => /^xl\/charts\/chart\d+\.xml$/.test(n))
        .map((n) => strFromU8(parts[n]!))
      expect(charts).toHaveLength(2)
      expect(charts.join('')).toMatch(/<c:barChart>[\s\S]*<c:barDir val="col"\/>/)
      expect(charts.join('')).toContain('<c:pieChart>')
      expect(charts.join('')).toContain('Revenue by month')
    },
    180_000,
  )
})
