import ExcelJS from 'exceljs'
import { strToU8, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readWorkbook } from '../../../src/main/preview'
import { loadSpreadsheetToolset } from '../../../src/main/spreadsheet'
import { createToolSession, invoke } from '../../../src/main/tools'
import type { Workspace } from '../../../src/main/workspace'
import { rejection, sandboxes } from '../workspace/sandbox'

const NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

/** A one-sheet workbook written as OOXML: `rows` rows of three cells, shared strings, merges in the tail. */
function workbook(rows: number, options: { shuffle?: boolean; dimension?: boolean; level?: 0 | 6 } = {}) {
  const body: string[] = []
  for (let r = 1; r <= rows; r++)
    body.push(
      `<row r="${r}"${r === 2 ? ' ht="30" customHeight="1"' : ''}><c r="A${r}" t="s"><v>${r % 2}</v></c><c r="B${r}"><v>${r * 10}</v></c><c r="C${r}"><f>B${r}*2</f><v>${r * 20}</v></c></row>`,
    )
  if (options.shuffle) body.reverse()
  const dimension = options.dimension === false ? '' : `<dimension ref="A1:C${rows}"/>`
  const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${dimension}<cols><col min="2" max="2" width="20" customWidth="1"/></cols><sheetData>${body.join('')}</sheetData><mergeCells count="1"><mergeCell ref="A${rows}:C${rows}"/></mergeCells></worksheet>`
  return zipSync(
    {
      '[Content_Types].xml': strToU8(
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
      ),
      'xl/workbook.xml': strToU8(
        `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${NS}"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
      'xl/_rels/workbook.xml.rels': strToU8(
        `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${NS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${NS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ),
      'xl/sharedStrings.xml': strToU8(
        '<sst><si><t>even</t></si><si><r><t>o</t></r><r><t>dd</t></r></si></sst>',
      ),
      'xl/worksheets/sheet1.xml': strToU8(sheet),
    },
    { level: options.level ?? 6 },
  )
}

describe('streamed sheet reader', () => {
  it('answers the first page from the start of the part and reads the rest only when asked', async () => {
    const model = await readWorkbook(workbook(20_000))
    const sheet = model.sheets[0]
    if (!sheet) throw new Error('no sheet')
    // Opened from the first piece: an estimate from the dimension, no merges yet.
    expect(sheet.info).toMatchObject({ name: 'Data', rows: 20_000, rowsExact: false, merges: [], columns: 3 })
    expect(sheet.info.widths[1]).toBe(20)
    const first = await sheet.rows(1, 50)
    expect(first.map((r) => r.r)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
    expect(first[0]?.cells.map((c) => c.t)).toEqual(['odd', '10', '20'])
    expect(first[1]?.cells[0]?.t).toBe('even')
    expect(first[1]?.h).toBe(30)
    expect(first[2]?.cells[2]?.f).toBe('B3*2')
    const early = sheet.progress
    expect(early.compressedRead).toBeLessThan(early.size / 10)
    expect(early.inflated).toBeLessThan(early.size / 10)
    expect(early.rowsCut).toBeLessThan(2_000)
    expect(early.rowsParsed).toBe(50)

    const last = await sheet.rows(19_990, 20)
    expect(last.map((r) => r.r)).toEqual(Array.from({ length: 11 }, (_, i) => 19_990 + i))
    expect(last[10]?.cells[1]?.t).toBe('200000')
    expect(sheet.progress.inflated).toBe(sheet.progress.size)
    expect(sheet.progress.rowsParsed).toBe(50 + 11)
    expect(await sheet.complete()).toEqual({ rows: 20_000, merges: ['A20000:C20000'] })
    expect(sheet.info.rowsExact).toBeUndefined()
  })

  it('reads a small sheet whole at once, exact rows and merges included', async () => {
    const sheet = (await readWorkbook(workbook(30, { level: 0 }))).sheets[0]
    expect(sheet?.info).toMatchObject({ rows: 30, merges: ['A30:C30'] })
    expect(sheet?.info.rowsExact).toBeUndefined()
    expect((await sheet?.rows(29, 5))?.map((r) => r.r)).toEqual([29, 30])
  })

  it('estimates the rows of a large sheet without a dimension, then counts them', async () => {
    const sheet = (await readWorkbook(workbook(20_000, { dimension: false }))).sheets[0]
    if (!sheet) throw new Error('no sheet')
    expect(sheet.info.rowsExact).toBe(false)
    expect(sheet.info.rows).toBeGreaterThan(10_000)
    expect(sheet.info.rows).toBeLessThan(40_000)
    expect(sheet.info.columns).toBe(3)
    expect((await sheet.complete()).rows).toBe(20_000)
  })

  it('reads rows stored out of order whole and pages them in order', async () => {
    const sheet = (await readWorkbook(workbook(3_000, { shuffle: true }))).sheets[0]
    if (!sheet) throw new Error('no sheet')
    const page = await sheet.rows(1, 3)
    expect(page.map((r) => r.r)).toEqual([1, 2, 3])
    expect(page[2]?.cells[1]?.t).toBe('30')
    expect((await sheet.rows(2_999, 5)).map((r) => r.r)).toEqual([2_999, 3_000])
  })

  it('refuses a package whose part inflates past its declared size', async () => {
    const bytes = workbook(3_000)
    // Lower the declared size of the sheet part in the central directory: the inflater overruns it.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const name = new TextEncoder().encode('xl/worksheets/sheet1.xml')
    for (let at = bytes.length - 22; at > 0; at--) {
      if (view.getUint32(at, true) !== 0x02014b50) continue
      const length = view.getUint16(at + 28, true)
      if (Buffer.from(bytes.subarray(at + 46, at + 46 + length)).equals(Buffer.from(name))) {
        view.setUint32(at + 24, 50_000, true)
        break
      }
    }
    const error = await rejection(readWorkbook(bytes).then(async (model) => model.sheets[0]?.complete()))
    expect(error.message).toMatch(/not a readable \.xlsx workbook/)
  })
})

describe('charts drawn from a workbook the spreadsheet toolset wrote', () => {
  const boxes = sandboxes('bureau-preview-charts-')
  let workspace: Workspace
  beforeAll(async () => {
    workspace = (await boxes.make()).workspace
  })
  afterAll(async () => {
    await workspace.close()
    await boxes.cleanup()
  })

  it('reads bar, line, pie and scatter charts with their cached values', async () => {
    const book = new ExcelJS.Workbook()
    book.addWorksheet('Data').addRows([
      ['Month', 'Sales', 'Costs'],
      [1, 120, 80],
      [2, 150, 90],
      [3, 90, 70],
    ])
    await workspace.writeFile('/charts.xlsx', new Uint8Array(await book.xlsx.writeBuffer()))
    const session = createToolSession({
      toolsets: [await loadSpreadsheetToolset()],
      workspace: () => workspace,
    })
    try {
      for (const [type, anchor] of [
        ['bar', 'E1'],
        ['line', 'E20'],
        ['pie', 'N1'],
        ['scatter', 'N20'],
      ] as const) {
        const added = await invoke(session, 'spreadsheet.add_chart', {
          path: '/charts.xlsx',
          sheet: 'Data',
          type,
          data_range: 'A1:C4',
          title: `${type} chart`,
          anchor,
        })
        expect(added.ok, added.ok ? '' : added.error).toBe(true)
      }
    } finally {
      await session.dispose()
    }
    const model = await readWorkbook(new Uint8Array(await workspace.readFile('/charts.xlsx')))
    const charts = model.sheets[0]?.info.placeholders ?? []
    expect(charts.map((p) => [p.kind, p.title, p.anchor, p.chart?.type])).toEqual([
      ['chart', 'bar chart', 'E1', 'bar'],
      ['chart', 'line chart', 'E20', 'line'],
      ['chart', 'pie chart', 'N1', 'pie'],
      ['chart', 'scatter chart', 'N20', 'scatter'],
    ])
    expect(charts[0]?.chart?.categories).toEqual(['1', '2', '3'])
    expect(charts[0]?.chart?.series).toEqual([
      { name: 'Sales', values: [120, 150, 90] },
      { name: 'Costs', values: [80, 90, 70] },
    ])
    expect(charts[3]?.chart?.series[1]).toEqual({ name: 'Costs', values: [80, 90, 70], x: [1, 2, 3] })
  })
})
