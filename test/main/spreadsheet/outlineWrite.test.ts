import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'
import { SaxesParser } from 'saxes'
import { afterEach, it as anyIt, beforeEach, expect } from 'vitest'
import { loadWorkbook } from '../../../src/main/spreadsheet/workbook/loadWorkbook'
import { describeNeeding } from '../../support/requirements'
import { currentTier, describeWhen, itWhen, type Tier } from '../../support/tier'
import { createHarness, type Harness, renameFailingFs } from './harness'
import { CSV_ALL_SHEETS, convert, parseCsv } from './libreOffice'
import { XLSX_CORPUS, xlsxCorpusDir, xlsxCorpusFiles } from './xlsxCorpus'

/** Writes to outlined workbooks; `tier` picks which tests this file registers (the soak tier adds most of the corpus). */
function outlineWriteSuite(tier: Tier): void {
  const it = itWhen(tier === 'fast', anyIt)

  // Writes to a workbook that was only outlined (open/describe_worksheet read its first rows) are kept
  // without loading every cell, and its save copies the rows it never loaded from the file. Everything
  // the agent and the file see must be what the whole load gives: receipts, the saved cells (values and
  // styles), column widths, row properties, the used range.

  const P = '/book.xlsx'
  let outlined: Harness
  let whole: Harness

  beforeEach(async () => {
    outlined = await createHarness()
    whole = await createHarness()
  })
  afterEach(async () => {
    await outlined.cleanup()
    await whole.cleanup()
  })

  /** A plain data sheet longer than the rows an outline loads, with styles, dates and odd values. */
  async function longSheet(rows = 900): Promise<Uint8Array> {
    const wb = new ExcelJS.Workbook()
    const ws = wb.addWorksheet('Data')
    ws.getColumn(4).numFmt = 'yyyy-mm-dd'
    ws.getColumn(6).style = { font: { italic: true } }
    ws.addRow(['Id', 'Name', 'Amount', 'When', 'Flag', 'Note'])
    ws.getRow(1).font = { bold: true }
    for (let i = 1; i < rows; i++) {
      const row = ws.addRow([
        i,
        i % 5 === 0
          ? { richText: [{ text: 'rich ', font: { bold: true } }, { text: `${i}` }] }
          : `name ${i % 37}`,
        i * 1.25,
        new Date(Date.UTC(2024, 0, 1 + (i % 300))),
        i % 3 === 0,
        i % 11 === 0 ? { error: '#N/A' } : null,
      ])
      if (i % 7 === 0) row.getCell(3).numFmt = '#,##0.00'
      if (i % 13 === 0)
        row.getCell(2).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFFF00' } }
      if (i % 50 === 0) {
        row.height = 30
        row.numFmt = '0.0%'
      }
    }
    ws.getCell('J880').value = 'far right'
    wb.addWorksheet('Notes').addRow(['only', 'a', 'few'])
    return new Uint8Array(await wb.xlsx.writeBuffer())
  }

  function place(h: Harness, bytes: Uint8Array, name = 'book.xlsx'): void {
    writeFileSync(path.join(h.root, name), bytes)
  }

  /** Run the same calls on both sides; the whole side loads the workbook first (get_sheet_names). */
  async function bothSides(calls: [string, Record<string, unknown>][]) {
    await outlined.call('open', { path: P })
    await whole.call('get_sheet_names', { path: P })
    const receipts: unknown[][] = [[], []]
    for (const [method, args] of calls) {
      receipts[0]!.push(await outlined.call(method, { path: P, ...args }))
      receipts[1]!.push(await whole.call(method, { path: P, ...args }))
    }
    return receipts
  }

  interface CellDump {
    value: unknown
    style: unknown
  }

  /** Every sheet's cells, rows and columns as exceljs reads them (through Bureau's load, which hides huge validations). */
  async function dump(file: string) {
    const wb = (await loadWorkbook(file, new Uint8Array(readFileSync(file)))).workbook
    return wb.worksheets.map((ws) => {
      const cells: Record<string, CellDump> = {}
      const rows: Record<number, unknown> = {}
      ws.eachRow({ includeEmpty: false }, (row, r) => {
        rows[r] = {
          height: row.height,
          hidden: row.hidden,
          style: (row as unknown as { style: unknown }).style,
        }
        row.eachCell({ includeEmpty: true }, (cell) => {
          cells[cell.address] = { value: cell.value, style: cell.style }
        })
      })
      const columns = (ws.columns ?? []).map((c) => ({ width: c.width, style: c.style, hidden: c.hidden }))
      return { name: ws.name, dimensions: ws.dimensions.range, cells, rows, columns }
    })
  }

  function sheetXml(file: string, part = 'xl/worksheets/sheet1.xml'): string {
    return strFromU8(unzipSync(readFileSync(file), { filter: (f) => f.name === part })[part]!)
  }

  describeWhen(tier === 'fast')('writes to an outlined workbook', () => {
    it('receipts and the saved workbook equal the whole load: values, styles, widths, rows', async () => {
      const bytes = await longSheet()
      place(outlined, bytes)
      place(whole, bytes)
      const receipts = await bothSides([
        ['set_range', { sheet: 'Data', start: 'B600', values: [['first', 2, true], ['second'], [], [7.5]] }],
        ['set_range', { sheet: 'Data', start: 'C5', values: [[1], [2]] }], // loaded rows
        [
          'set_range',
          { sheet: 'Data', start: 'A205', values: Array.from({ length: 10 }, (_, i) => [i, `t${i}`]) },
        ],
        ['set_cell_value', { sheet: 'Data', cell: 'D700', value: 45500 }], // a date column
        ['set_cell_value', { sheet: 'Data', cell: 'C350', value: 12.5 }], // a cell with its own format
        ['set_range', { sheet: 'Data', start: 'K950', values: [['past the end', 'of the sheet']] }],
        [
          'append_rows',
          {
            sheet: 'Data',
            rows: [
              ['appended', 1],
              ['again', 2],
            ],
          },
        ],
        ['set_range', { sheet: 'Data', start: 'B400', values: [["'=not a formula", "'0042"]] }],
        ['set_range', { sheet: 'Notes', start: 'A2', values: [['more', 'notes']] }],
        ['describe_worksheet', { sheet: 'Data' }],
        ['get_range', { sheet: 'Data', range: 'A595:L610' }],
        ['get_range', { sheet: 'Data', range: 'B:C', page: 3, page_rows: 100 }],
        ['get_range', { sheet: 'Data', range: 'A198:F215', detailed: true }],
        ['get_range', { sheet: 'Data', range: 'J940:M960', detailed: true }],
        ['get_range', { sheet: 'Data', range: 'A840:F851', detailed: true }],
        ['save', {}],
      ])
      // The file's bytes differ (rows not loaded keep their own XML), so its size and history id do too.
      const comparable = (list: unknown[]) =>
        list.map((r) => ({ ...(r as object), bytes: undefined, version: undefined }))
      expect(comparable(receipts[0]!)).toEqual(comparable(receipts[1]!))
      const [ours, theirs] = await Promise.all([
        dump(path.join(outlined.root, 'book.xlsx')),
        dump(path.join(whole.root, 'book.xlsx')),
      ])
      expect(ours).toEqual(theirs)
      expect(ours[0]?.cells.B600?.value).toBe('first')
      expect(ours[0]?.cells.L950?.value).toBe('of the sheet')
    })

    it('keeps the rows it did not load as they were written (numbers to the digit)', async () => {
      const wb = new ExcelJS.Workbook()
      const ws = wb.addWorksheet('Data')
      for (let i = 1; i <= 400; i++) ws.addRow([i, 0.1 + i / 3])
      place(outlined, new Uint8Array(await wb.xlsx.writeBuffer()))
      const before = sheetXml(path.join(outlined.root, 'book.xlsx'))
      const row300 = /<row r="300"[\s\S]*?<\/row>/.exec(before)?.[0]
      expect(row300).toBeDefined()
      await outlined.call('open', { path: P })
      await outlined.call('set_range', { path: P, sheet: 'Data', start: 'C390', values: [['note']] })
      await outlined.call('save', { path: P })
      const after = sheetXml(path.join(outlined.root, 'book.xlsx'))
      expect(after).toContain(row300!)
      expect(after).toMatch(/<dimension ref="A1:C400"\/>/)
    })

    it('declares the namespaces the copied rows use, as the file did', async () => {
      const wb = new ExcelJS.Workbook()
      const ws = wb.addWorksheet('Data')
      for (let i = 1; i <= 400; i++) ws.addRow([i])
      const parts = unzipSync(new Uint8Array(await wb.xlsx.writeBuffer()))
      const sheet = strFromU8(parts['xl/worksheets/sheet1.xml']!)
        .replace('<worksheet ', '<worksheet xmlns:mark="urn:example:mark" ')
        .replace('<row r="350"', '<row r="350" mark:seen="1"')
      parts['xl/worksheets/sheet1.xml'] = strToU8(sheet)
      place(outlined, zipSync(parts))
      await outlined.call('open', { path: P })
      await outlined.call('set_range', { path: P, sheet: 'Data', start: 'B390', values: [['x']] })
      await outlined.call('save', { path: P })
      const saved = sheetXml(path.join(outlined.root, 'book.xlsx'))
      expect(saved).toContain('mark:seen="1"')
      const parser = new SaxesParser({ xmlns: true })
      expect(() => parser.write(saved).close()).not.toThrow()
    })

    it('leaves a sheet whose rows are out of order to the whole load, and still writes', async () => {
      const wb = new ExcelJS.Workbook()
      const ws = wb.addWorksheet('Data')
      for (let i = 1; i <= 400; i++) ws.addRow([i, `v${i}`])
      const parts = unzipSync(new Uint8Array(await wb.xlsx.writeBuffer()))
      const xml = strFromU8(parts['xl/worksheets/sheet1.xml']!)
      const row = (n: number) => new RegExp(`<row r="${n}"[\\s\\S]*?</row>`).exec(xml)![0]
      // Rows 300 and 301 swapped: exceljs reads them by number, a reader going by position would not.
      parts['xl/worksheets/sheet1.xml'] = strToU8(xml.replace(row(300) + row(301), row(301) + row(300)))
      place(outlined, zipSync(parts))
      place(whole, zipSync(parts))
      const receipts = await bothSides([
        ['describe_worksheet', { sheet: 'Data' }],
        ['get_range', { sheet: 'Data', range: 'A299:B302' }],
        ['set_range', { sheet: 'Data', start: 'B300', values: [['x'], ['y']] }],
        ['get_range', { sheet: 'Data', range: 'A299:B302' }],
        ['save', {}],
      ])
      expect(receipts[0]?.slice(0, 4)).toEqual(receipts[1]?.slice(0, 4))
      const saved = await dump(path.join(outlined.root, 'book.xlsx'))
      expect([saved[0]?.cells.B300?.value, saved[0]?.cells.B301?.value, saved[0]?.cells.B302?.value]).toEqual(
        ['x', 'y', 'v302'],
      )
    })

    it('saves an outline with no writes as the whole load would', async () => {
      const bytes = await longSheet(500)
      place(outlined, bytes)
      place(whole, bytes)
      await bothSides([['save', {}]])
      const [ours, theirs] = await Promise.all([
        dump(path.join(outlined.root, 'book.xlsx')),
        dump(path.join(whole.root, 'book.xlsx')),
      ])
      expect(ours).toEqual(theirs)
    })

    it('reads pages from the file, and loads the workbook whole with the kept writes for a call that needs every cell', async () => {
      place(outlined, await longSheet())
      await outlined.call('open', { path: P })
      await outlined.call('set_range', { path: P, sheet: 'Data', start: 'B700', values: [['kept']] })
      const page = await outlined.call<{ values: string[][] }>('get_range', {
        path: P,
        sheet: 'Data',
        range: 'A700:B700',
      })
      expect(page.values).toEqual([['699', 'kept']])
      await outlined.call('sort_range', {
        path: P,
        sheet: 'Data',
        range: 'A1:F900',
        by: 'A',
        descending: true,
      })
      await outlined.call('save', { path: P })
      const saved = await dump(path.join(outlined.root, 'book.xlsx'))
      expect(saved[0]?.cells.B202?.value).toBe('kept')
    })

    it('takes the whole load for a formula, a cleared cell or text typed as a number', async () => {
      place(outlined, await longSheet())
      await outlined.call('open', { path: P })
      const values = [['=A700*2'], [null], ['12%'], ['2024-03-01']]
      for (const [i, value] of values.entries())
        await outlined.call('set_range', { path: P, sheet: 'Data', start: `G${700 + i}`, values: [value] })
      const page = await outlined.call<{ values: string[][] }>('get_range', {
        path: P,
        sheet: 'Data',
        range: 'G700:G703',
      })
      expect(page.values).toEqual([['1398'], [''], ['12%'], ['2024-03-01']])
    })

    it('refuses a bad block with the message the whole load gives, writing nothing', async () => {
      place(outlined, await longSheet())
      await outlined.call('open', { path: P })
      const empty = await outlined.fail('set_range', { path: P, sheet: 'Data', start: 'A800', values: [[]] })
      expect(empty).toContain('values has only empty rows')
      const edge = await outlined.fail('set_range', {
        path: P,
        sheet: 'Data',
        start: 'XFD800',
        values: [[1, 2]],
      })
      expect(edge).toContain('past the last row or column')
      const missing = await outlined.fail('set_range', {
        path: P,
        sheet: 'Nope',
        start: 'A800',
        values: [[1]],
      })
      expect(missing).toContain('Nope')
      // The values' own check (tools/fastCheck.ts) still names the cell that is not a value.
      const bad = await outlined.fail('set_range', {
        path: P,
        sheet: 'Data',
        start: 'A800',
        values: [[1, { x: 1 }]],
      })
      expect(bad).toContain('values[0][1]: expected another type')
    })

    it('the agent can close without saving, and a session end saves the kept writes', async () => {
      place(outlined, await longSheet())
      await outlined.call('open', { path: P })
      await outlined.call('set_range', { path: P, sheet: 'Data', start: 'B650', values: [['dropped']] })
      await outlined.call('close', { path: P, save: false })
      await outlined.call('open', { path: P })
      await outlined.call('set_range', { path: P, sheet: 'Data', start: 'B651', values: [['kept']] })
      await outlined.newSession()
      const saved = await dump(path.join(outlined.root, 'book.xlsx'))
      expect(saved[0]?.cells.B650?.value).toBe('name 20')
      expect(saved[0]?.cells.B651?.value).toBe('kept')
    })
  })

  describeWhen(tier === 'fast')('a failed save of an outlined workbook', () => {
    it('reports the failure, leaves the file as it was, and keeps the writes for the next save', async () => {
      const { fs, failing } = renameFailingFs()
      const h = await createHarness({ fs })
      try {
        const bytes = await longSheet()
        place(h, bytes)
        await h.call('open', { path: P })
        await h.call('set_range', { path: P, sheet: 'Data', start: 'B800', values: [['survives']] })
        failing.rename = true
        expect(await h.fail('save', { path: P })).toContain('EIO')
        expect(Buffer.compare(readFileSync(path.join(h.root, 'book.xlsx')), bytes)).toBe(0)
        failing.rename = false
        await h.call('save', { path: P })
        const saved = await dump(path.join(h.root, 'book.xlsx'))
        expect(saved[0]?.cells.B800?.value).toBe('survives')
        expect(saved[0]?.cells.B799?.value).toBe('name 21')
      } finally {
        await h.cleanup()
      }
    })
  })

  describeWhen(tier === 'soak', describeNeeding)(
    ['soffice'],
    'LibreOffice reads an outlined workbook saved with writes',
    () => {
      anyIt(
        'shows every row: the copied ones, the written ones and the new ones',
        async () => {
          place(outlined, await longSheet())
          await outlined.call('open', { path: P })
          await outlined.call('set_range', {
            path: P,
            sheet: 'Data',
            start: 'A600',
            values: [[-1, 'written', 3.5]],
          })
          await outlined.call('set_range', { path: P, sheet: 'Data', start: 'A905', values: [['new row']] })
          await outlined.call('save', { path: P })
          const out = path.join(outlined.root, 'lo')
          mkdirSync(out)
          await convert(path.join(outlined.root, 'book.xlsx'), CSV_ALL_SHEETS, out)
          const rows = parseCsv(readFileSync(path.join(out, 'book-Data.csv'), 'utf8'))
          expect(rows[0]?.slice(0, 3)).toEqual(['Id', 'Name', 'Amount'])
          expect(rows[599]?.slice(0, 3)).toEqual(['-1', 'written', '3.5'])
          expect(rows[598]?.slice(0, 2)).toEqual(['598', 'name 6'])
          expect(rows[845]?.[1]).toBe('rich 845')
          expect(rows[904]?.[0]).toBe('new row')
          expect(rows[879]?.[9]).toBe('far right')
        },
        120_000,
      )
    },
  )

  describeNeeding([XLSX_CORPUS], 'writes to outlined corpus workbooks', () => {
    // The two workbooks exceljs itself cannot read: both loads must refuse them alike.
    const unreadable = new Set(['exceljs/invalid-xml.xlsx', 'exceljs/missing-bits.xlsx'])
    const files = xlsxCorpusFiles()

    it('covers the corpus', () => {
      expect(files.length).toBeGreaterThanOrEqual(60)
    })

    it.each([...unreadable])('%s: the outlined and the whole load refuse it alike', async (file) => {
      const bytes = new Uint8Array(readFileSync(path.join(xlsxCorpusDir, file)))
      place(outlined, bytes)
      place(whole, bytes)
      const theirs = await whole.call('get_sheet_names', { path: P }).then(
        () => 'opened',
        (error: Error) => error.message,
      )
      const ours = await outlined.call('open', { path: P }).then(
        () => 'opened',
        (error: Error) => error.message,
      )
      expect(theirs).not.toBe('opened')
      // The same reason; the message of each starts with the method that was called.
      const reason = (message: string) => message.replace(/^.*? failed: spreadsheet_\w+ failed: /, '')
      expect(reason(ours)).toBe(reason(theirs))
      expect(reason(ours)).toMatch(/^\/book\.xlsx is not a readable \.xlsx workbook/)
    })

    // npm test writes every eighth of the workbooks under 100 kB (a spread of the corpus, without the big ones
    // that take seconds each); the soak tier writes the others.
    const readable = files.filter((file) => !unreadable.has(file))
    const small = readable.filter((file) => statSync(path.join(xlsxCorpusDir, file)).size < 100_000)
    const sampled = small.filter((_file, index) => index % 8 === 0)
    anyIt.each(tier === 'fast' ? sampled : readable.filter((file) => !sampled.includes(file)))(
      '%s: a write and save equal the whole load',
      async (file) => {
        const bytes = new Uint8Array(readFileSync(path.join(xlsxCorpusDir, file)))
        place(outlined, bytes)
        place(whole, bytes)
        const names = await whole.call<{ sheets: string[] }>('get_sheet_names', { path: P })
        const sheet = names.sheets[0]
        if (!sheet) expect.fail(`${file} has no sheet`)
        await outlined.call('open', { path: P })
        const write = { path: P, sheet, start: 'B3', values: [['written', 4]] }
        const ours = await outlined.call('set_range', write)
        const theirs = await whole.call('set_range', write)
        expect(ours).toEqual(theirs)
        await outlined.call('save', { path: P })
        await whole.call('save', { path: P })
        const [a, b] = await Promise.all([
          dump(path.join(outlined.root, 'book.xlsx')),
          dump(path.join(whole.root, 'book.xlsx')),
        ])
        expect(a).toEqual(b)
      },
    )
  })
}

outlineWriteSuite(currentTier())
