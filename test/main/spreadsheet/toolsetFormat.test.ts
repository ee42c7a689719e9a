import { copyFileSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { strFromU8 } from 'fflate'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { itNeeding } from '../../support/itNeeding'
import { type Harness, harnessWithSheet } from './harness'
import { XLSX_CORPUS, xlsxCorpusDir } from './xlsxCorpus'

let h: Harness
const P = '/fmt.xlsx'

async function reopen(): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.load(readFileSync(path.join(h.root, 'fmt.xlsx')) as unknown as ArrayBuffer)
  return wb
}

function partsOnDisk(): Record<string, string> {
  const parts = readPackage(readFileSync(path.join(h.root, 'fmt.xlsx')))
  return Object.fromEntries(
    Object.entries(parts)
      .filter(([n]) => /\.(xml|rels)$/.test(n))
      .map(([n, b]) => [n, strFromU8(b)]),
  )
}

beforeEach(async () => {
  h = await harnessWithSheet(P, 'Data', [
    ['Month', 'North', 'South'],
    ['Jan', 120, 80],
    ['Feb', 150, 95],
    ['Mar', 90, 130],
  ])
})
afterEach(async () => h.cleanup())

describe('settings methods return {sheet, range, applied} and reach the file', () => {
  it('apply_style, format_header_row, set_column_width, merge_cells, freeze_panes, set_page_setup', async () => {
    expect(
      await h.call('apply_style', {
        path: P,
        sheet: 'Data',
        range: 'B2:C4',
        italic: true,
        font_color: '#C00000',
        fill_color: 'yellow',
        border: 'thin',
        horizontal_align: 'right',
        wrap: true,
      }),
    ).toEqual({
      sheet: 'Data',
      range: 'B2:C4',
      applied: [
        'italic true',
        'font colour #C00000',
        'fill yellow',
        'border thin',
        'align right',
        'wrap true',
      ],
    })
    expect(await h.call('format_header_row', { path: P, sheet: 'Data' })).toEqual({
      sheet: 'Data',
      range: 'A1:C1',
      applied: ['bold', 'fill #D9E1F2', 'bottom border thin', 'row 1 columns A:C'],
    })
    expect(await h.call('set_column_width', { path: P, sheet: 'Data', columns: 'B:C', width: 14 })).toEqual({
      sheet: 'Data',
      range: 'B:C',
      applied: ['width 14'],
    })
    expect(await h.call('merge_cells', { path: P, sheet: 'Data', range: 'E1:F1' })).toEqual({
      sheet: 'Data',
      range: 'E1:F1',
      applied: ['merged E1:F1'],
    })
    expect(await h.call('freeze_panes', { path: P, sheet: 'Data', cell: 'B2' })).toEqual({
      sheet: 'Data',
      range: 'B2',
      applied: ['frozen 1 row(s) and 1 column(s)'],
    })
    expect(
      await h.call('set_page_setup', {
        path: P,
        sheet: 'Data',
        orientation: 'landscape',
        paper_size: 'A4',
        fit_to_width: 1,
        repeat_header_rows: '1:1',
        margins: 'narrow',
      }),
    ).toEqual({
      sheet: 'Data',
      range: 'A1:C4',
      applied: [
        'orientation landscape',
        'paper A4',
        'fit to 1 page(s) wide by any tall',
        'repeat rows 1:1',
        'margins narrow',
      ],
    })
    await h.call('save', { path: P })
    const ws = (await reopen()).getWorksheet('Data')!
    expect(ws.getCell('B2').font).toMatchObject({ italic: true, color: { argb: 'FFC00000' } })
    expect(ws.getCell('C4').fill).toMatchObject({
      type: 'pattern',
      pattern: 'solid',
      fgColor: { argb: 'FFFFFF00' },
    })
    expect(ws.getCell('B3').border.top).toMatchObject({ style: 'thin' })
    expect(ws.getCell('B2').alignment).toMatchObject({ horizontal: 'right', wrapText: true })
    expect(ws.getCell('A1').font).toMatchObject({ bold: true })
    expect(ws.getColumn(2).width).toBe(14)
    expect(ws.getCell('F1').isMerged).toBe(true)
    expect(ws.views[0]).toMatchObject({ state: 'frozen', xSplit: 1, ySplit: 1 })
    expect(ws.pageSetup).toMatchObject({
      orientation: 'landscape',
      paperSize: 9,
      fitToPage: true,
      fitToWidth: 1,
    })
  })

  it('set_number_format returns the area receipt with formats applied and unquotes quoted formats', async () => {
    const receipt = await h.call('set_number_format', {
      path: P,
      sheet: 'Data',
      range: 'B2:B3',
      format: '"$#,##0.00"',
    })
    expect(receipt).toEqual({
      sheet: 'Data',
      range: 'B2:B3',
      rows: 2,
      columns: 1,
      values: [['$120.00'], ['$150.00']],
      formats: { B2: '$#,##0.00', B3: '$#,##0.00' },
    })
    await h.call('set_number_format', { path: P, sheet: 'Data', range: 'C2', format: '0.0%' })
    expect(await h.call('get_range', { path: P, sheet: 'Data', range: 'C2' })).toMatchObject({
      values: [['8000.0%']],
    })
  })

  it('add_table, add_conditional_format, add_data_validation are written into the package', async () => {
    const table = await h.call('add_table', {
      path: P,
      sheet: 'Data',
      range: 'A1:C4',
      name: 'Sales',
      style: 'TableStyleLight9',
    })
    expect(table).toEqual({
      sheet: 'Data',
      range: 'A1:C4',
      rows: 4,
      columns: 3,
      values: [
        ['Month', 'North', 'South'],
        ['Jan', '120', '80'],
        ['Feb', '150', '95'],
        ['Mar', '90', '130'],
      ],
      types: { A1: 'text', B1: 'text', C1: 'text', A2: 'text', A3: 'text', A4: 'text' },
      table: 'Sales',
    })
    expect(
      await h.call('add_conditional_format', {
        path: P,
        sheet: 'Data',
        range: 'B2:C4',
        rule: 'cell_value',
        operator: 'greater_than',
        value: 100,
        fill_color: '#FFC7CE',
      }),
    ).toEqual({
      sheet: 'Data',
      range: 'B2:C4',
      applied: [
        'highlight cells greater than 100 with fill #FFC7CE',
        'stored as rule 1: cell value greaterThan 100',
      ],
    })
    expect(
      await h.call('add_conditional_format', {
        path: P,
        sheet: 'Data',
        range: 'C2:C4',
        rule: 'color_scale',
        colors: ['#FFFFFF', '#63BE7B'],
      }),
    ).toEqual({
      sheet: 'Data',
      range: 'C2:C4',
      applied: ['colour scale #FFFFFF -> #63BE7B', 'stored as rule 2: colorScale'],
    })
    expect(
      await h.call('add_data_validation', {
        path: P,
        sheet: 'Data',
        range: 'D2:D4',
        type: 'list',
        values: ['Open', 'Closed'],
      }),
    ).toEqual({ sheet: 'Data', range: 'D2:D4', applied: ['list Open, Closed'] })
    expect(
      await h.call('add_data_validation', {
        path: P,
        sheet: 'Data',
        range: 'E2:E4',
        type: 'whole',
        min: 0,
        max: 10,
      }),
    ).toEqual({ sheet: 'Data', range: 'E2:E4', applied: ['whole between 0 and 10'] })
    expect((await h.call('describe_worksheet', { path: P, sheet: 'Data' })).tables).toEqual([
      { name: 'Sales', range: 'A1:C4' },
    ])
    await h.call('save', { path: P })
    const parts = partsOnDisk()
    const table1 = Object.entries(parts).find(([n]) => n.startsWith('xl/tables/'))?.[1] ?? ''
    expect(table1).toContain('name="Sales"')
    expect(table1).toContain('ref="A1:C4"')
    expect(table1).toContain('TableStyleLight9')
    const sheet = parts['xl/worksheets/sheet1.xml'] ?? ''
    expect(sheet).toMatch(
      /<conditionalFormatting sqref="B2:C4">.*operator="greaterThan".*<formula>100<\/formula>/,
    )
    expect(sheet).toMatch(/<conditionalFormatting sqref="C2:C4">.*<colorScale>/)
    expect(sheet).toMatch(
      /<dataValidation type="list"[^>]*sqref="D2:D4"[^>]*>.*<formula1>&quot;Open,Closed&quot;<\/formula1>/,
    )
    expect(sheet).toMatch(
      /<dataValidation type="whole"[^>]*sqref="E2:E4"[^>]*>.*<formula1>0<\/formula1><formula2>10<\/formula2>/,
    )
  })

  it('add_chart writes a chart part anchored in a drawing, and describe_worksheet lists it', async () => {
    for (const type of ['column', 'bar', 'line', 'pie', 'scatter', 'area']) {
      await h.call('add_chart', {
        path: P,
        sheet: 'Data',
        type,
        data_range: 'A1:C4',
        title: `${type} chart`,
        anchor: 'E2',
      })
    }
    expect(await h.call('add_chart', { path: P, sheet: 'Data', type: 'line', data_range: 'A1:B4' })).toEqual({
      sheet: 'Data',
      range: 'A1:B4',
      applied: [
        'line chart with 1 series: North (Data!$B$2:$B$4 by Data!$A$2:$A$4)',
        'legend "bottom"',
        'anchored at D1',
      ],
    })
    const save = await h.call('save', { path: P })
    expect(save.chartsAdded).toBe(7)
    const parts = partsOnDisk()
    const charts = Object.keys(parts).filter((n) => /^xl\/charts\/chart\d+\.xml$/.test(n))
    expect(charts).toHaveLength(7)
    const all = charts.map((n) => parts[n]).join('\n')
    for (const tag of [
      '<c:barDir val="col"/>',
      '<c:barDir val="bar"/>',
      '<c:lineChart>',
      '<c:pieChart>',
      '<c:scatterChart>',
      '<c:areaChart>',
    ])
      expect(all).toContain(tag)
    expect(all).toContain('<c:f>Data!$B$2:$B$4</c:f>')
    expect(parts['[Content_Types].xml']).toContain('drawingml.chart+xml')
    const described = await h.call<{ charts: unknown[] }>('describe_worksheet', { path: P, sheet: 'Data' })
    expect(described.charts).toHaveLength(7)
    expect(described.charts[0]).toEqual({ type: 'column', title: 'column chart', anchor: 'E2' })
    // A second save keeps the charts (they are now part of the original package).
    await h.call('set_cell_value', { path: P, sheet: 'Data', cell: 'B2', value: 1 })
    const again = await h.call('save', { path: P })
    expect(again.carried).toContain('Data: drawing')
    expect(Object.keys(partsOnDisk()).filter((n) => /^xl\/charts\/chart\d+\.xml$/.test(n))).toHaveLength(7)
  })

  itNeeding(
    [XLSX_CORPUS],
    'charts follow sheet renames and inserted rows: references and anchors (carried and new charts alike)',
    async () => {
      copyFileSync(path.join(xlsxCorpusDir, 'xlsxwriter', 'chart_column01.xlsx'), path.join(h.root, 'c.xlsx'))
      await h.call('add_chart', { path: '/c.xlsx', sheet: 'Sheet1', type: 'line', data_range: 'A1:B5' })
      await h.call('rename_sheet', { path: '/c.xlsx', sheet: 'Sheet1', new_name: 'Data Sheet' })
      await h.call('insert_rows', { path: '/c.xlsx', sheet: 'Data Sheet', row: 1, count: 2 })
      await h.call('save', { path: '/c.xlsx' })
      const parts = readPackage(readFileSync(path.join(h.root, 'c.xlsx')))
      const charts = Object.keys(parts)
        .filter((n) => /^xl\/charts\/chart\d+\.xml$/.test(n))
        .map((n) => strFromU8(parts[n]!))
      expect(charts).toHaveLength(2)
      const refs = charts.map((xml) => [...xml.matchAll(/<c:f>([^<]*)<\/c:f>/g)].map((m) => m[1]))
      // The corpus chart plots A1:A5, B1:B5, C1:C5; ours was made from A1:B5 (header row 1).
      expect(refs[0]).toEqual(["'Data Sheet'!$A$3:$A$7", "'Data Sheet'!$B$3:$B$7", "'Data Sheet'!$C$3:$C$7"])
      expect(refs[1]).toEqual(["'Data Sheet'!$B$3", "'Data Sheet'!$A$4:$A$7", "'Data Sheet'!$B$4:$B$7"])
      // Drawings move down with the inserted rows: the corpus chart from E9 to E11, ours from D1 to D3.
      const described = await h.call<{ charts: { anchor?: string }[] }>('describe_worksheet', {
        path: '/c.xlsx',
        sheet: 'Data Sheet',
      })
      expect(described.charts.map((c) => c.anchor)).toEqual(['E11', 'D3'])
    },
  )
})
