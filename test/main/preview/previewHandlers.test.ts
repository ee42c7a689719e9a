import { readFileSync } from 'node:fs'
import { truncate, writeFile } from 'node:fs/promises'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPreviewHandlers } from '../../../src/main/preview'
import { loadSpreadsheetToolset } from '../../../src/main/spreadsheet'
import { createToolSession, invoke } from '../../../src/main/tools'
import type { Workspace } from '../../../src/main/workspace'
import type { PreviewDescription } from '../../../src/shared/ipc'
import { fixturePath } from '../../support/fixtures'
import { rejection, sandboxes } from '../workspace/sandbox'

const boxes = sandboxes('bureau-preview-')
let workspace: Workspace
let root = ''
let handlers: ReturnType<typeof createPreviewHandlers>

async function styledWorkbook(total: number): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Sales', { views: [{ state: 'frozen', xSplit: 1, ySplit: 1 }] })
  sheet.columns = [{ width: 20 }, { width: 12 }, { width: 30 }]
  sheet.addRow(['Region', 'Amount', 'Share'])
  sheet.getRow(1).font = { bold: true }
  sheet.getCell('A1').fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFFF00' } }
  sheet.getCell('A1').border = { bottom: { style: 'thin' } }
  sheet.addRow(['North', 1200.5, 0.25])
  sheet.addRow(['South', 800, 0.75])
  sheet.getCell('B2').numFmt = '#,##0.00'
  sheet.getCell('C2').numFmt = '0%'
  sheet.getCell('B4').value = { formula: 'SUM(B2:B3)', result: total }
  sheet.mergeCells('A6:C6')
  sheet.getCell('A6').value = 'Merged note'
  sheet.getCell('A7').value = new Date(Date.UTC(2024, 2, 15))
  sheet.getCell('A7').numFmt = 'yyyy-mm-dd'
  book.addWorksheet('Empty')
  return new Uint8Array(await book.xlsx.writeBuffer())
}

const describeFile = (file: string, version = 'current') =>
  handlers['preview.describe']({ path: file, version })

function as<K extends PreviewDescription['kind']>(
  description: PreviewDescription,
  kind: K,
): Extract<PreviewDescription, { kind: K }> {
  expect(description.kind).toBe(kind)
  return description as Extract<PreviewDescription, { kind: K }>
}

beforeAll(async () => {
  const box = await boxes.make()
  workspace = box.workspace
  root = box.root
  handlers = createPreviewHandlers({ workspace: () => workspace })
  await workspace.writeFile('/book.xlsx', await styledWorkbook(2000.5))
  await workspace.writeFile('/chart.xlsx', await styledWorkbook(2000.5))
})
afterAll(async () => {
  await workspace.close()
  await boxes.cleanup()
})

describe('preview of a workbook', () => {
  it('describes sheets, frozen panes, widths, merges and resolved styles', async () => {
    const sheet = as(await describeFile('/book.xlsx'), 'sheet')
    expect(sheet.sheets.map((s) => s.name)).toEqual(['Sales', 'Empty'])
    const sales = sheet.sheets[0]
    expect(sales).toMatchObject({ rows: 7, columns: 3, frozen: { rows: 1, columns: 1 }, merges: ['A6:C6'] })
    expect(sales?.widths.slice(0, 3).map(Math.round)).toEqual([20, 12, 30])
    const rows = (
      await handlers['preview.sheetRows']({
        path: '/book.xlsx',
        version: 'current',
        sheet: 'Sales',
        from: 1,
        count: 10,
      })
    ).rows
    const cell = (ref: string) => {
      const column = ref.charCodeAt(0) - 64
      return rows.find((r) => r.r === Number(ref.slice(1)))?.cells.find((c) => c.c === column)
    }
    expect(cell('B2')?.t).toBe('1,200.50')
    expect(cell('C2')?.t).toBe('25%')
    expect(cell('C3')?.t).toBe('0.75')
    expect(cell('B4')).toMatchObject({ t: '2000.5', f: 'SUM(B2:B3)' })
    expect(cell('A7')).toMatchObject({ t: '2024-03-15', k: 'd' })
    const a1 = sheet.styles[cell('A1')?.s ?? 0]
    expect(a1).toMatchObject({ bold: true, fill: '#ffff00', borders: { bottom: 'thin' } })
    // The first page of the first sheet comes with the description, as the rows route gives it.
    expect(sheet.firstRows?.sheet).toBe('Sales')
    expect(sheet.firstRows?.rows).toEqual(rows)
  })

  it('pages rows from anywhere in the sheet', async () => {
    const { rows } = await handlers['preview.sheetRows']({
      path: '/book.xlsx',
      version: 'current',
      sheet: 'Sales',
      from: 3,
      count: 2,
    })
    expect(rows.map((r) => r.r)).toEqual([3, 4])
    await expect(
      handlers['preview.sheetRows']({
        path: '/book.xlsx',
        version: 'current',
        sheet: 'Nope',
        from: 1,
        count: 1,
      }),
    ).rejects.toThrow(/no sheet "Nope".*Sales, Empty/)
  })

  it('lists versions, compares two, restores the older through the history toolset and a backup through the files toolset', async () => {
    const changed = await styledWorkbook(2001)
    await workspace.writeFile('/book.xlsx', changed)
    const { versions } = await handlers['preview.versions']({ path: '/book.xlsx' })
    expect(versions[0]).toMatchObject({ version: 'current', source: 'current' })
    const older = versions.find((v) => v.source === 'history')
    expect(older?.version).toMatch(/^h:[0-9a-f]+$/)
    expect(versions.some((v) => v.source === 'backup')).toBe(true)
    const diff = await handlers['preview.compare']({
      path: '/book.xlsx',
      version: 'current',
      against: older?.version ?? '',
    })
    expect(diff).toEqual({ sheets: [{ sheet: 'Sales', cells: ['B4'] }], truncated: false })
    const old = await handlers['preview.sheetRows']({
      path: '/book.xlsx',
      version: older?.version ?? '',
      sheet: 'Sales',
      from: 4,
      count: 1,
    })
    expect(old.rows[0]?.cells.find((c) => c.c === 2)?.t).toBe('2000.5')

    const receipt = await handlers['preview.restore']({ path: '/book.xlsx', version: older?.version ?? '' })
    expect(receipt.path).toBe('/book.xlsx')
    expect(receipt.bytes).toBeGreaterThan(0)
    const now = await handlers['preview.sheetRows']({
      path: '/book.xlsx',
      version: 'current',
      sheet: 'Sales',
      from: 4,
      count: 1,
    })
    expect(now.rows[0]?.cells.find((c) => c.c === 2)?.t).toBe('2000.5')

    // The restore kept the content it replaced as the newest backup: restoring that one (through the files
    // toolset) brings 2001 back, and its receipt names the backup file.
    const backup = (await handlers['preview.versions']({ path: '/book.xlsx' })).versions.find(
      (v) => v.source === 'backup',
    )
    expect(backup?.version).toMatch(/^b:\d+$/)
    const fromBackup = await handlers['preview.restore']({
      path: '/book.xlsx',
      version: backup?.version ?? '',
    })
    expect(fromBackup.restoredFrom).toMatch(/\.bak$/)
    const back = await handlers['preview.sheetRows']({
      path: '/book.xlsx',
      version: 'current',
      sheet: 'Sales',
      from: 4,
      count: 1,
    })
    expect(back.rows[0]?.cells.find((c) => c.c === 2)?.t).toBe('2001')
  })

  it('reads a chart the spreadsheet toolset added: its kind, cached values and anchor', async () => {
    const session = createToolSession({ toolsets: [await loadSpreadsheetToolset()], workspace })
    try {
      const added = await invoke(session, 'spreadsheet.add_chart', {
        path: '/chart.xlsx',
        sheet: 'Sales',
        type: 'column',
        data_range: 'A1:B3',
        title: 'Amount by region',
        anchor: 'E2',
      })
      expect(added.ok, added.ok ? '' : added.error).toBe(true)
    } finally {
      await session.dispose()
    }
    const sales = as(await describeFile('/chart.xlsx'), 'sheet').sheets[0]
    expect(sales?.placeholders).toEqual([
      {
        kind: 'chart',
        title: 'Amount by region',
        anchor: 'E2',
        to: 'M17',
        chart: {
          type: 'column',
          grouping: 'clustered',
          categories: ['North', 'South'],
          series: [{ name: 'Amount', values: [1200.5, 800] }],
        },
      },
    ])
  })

  it('refuses a damaged workbook with a clear message', async () => {
    await workspace.writeFile('/broken.xlsx', new TextEncoder().encode('not a zip at all'))
    const error = await rejection(describeFile('/broken.xlsx'))
    expect(error.message).toMatch(/not a readable \.xlsx workbook/)
  })
})

describe('preview of documents', () => {
  it('draws PDF pages with PDFium', async () => {
    await workspace.writeFile('/report.pdf', readFileSync(fixturePath('core', 'report.pdf')))
    const pdf = as(await describeFile('/report.pdf'), 'pdf')
    expect(pdf.pages).toBeGreaterThan(0)
    const page = await handlers['preview.pdfPage']({
      path: '/report.pdf',
      version: 'current',
      page: 1,
      width: 400,
    })
    expect([...page.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])
    expect(page.width).toBeGreaterThan(300)
    await expect(
      handlers['preview.pdfPage']({
        path: '/report.pdf',
        version: 'current',
        page: pdf.pages + 1,
        width: 400,
      }),
    ).rejects.toThrow(/does not exist/)
  })

  it('reads Word as HTML, mail with headers and attachments, calendars, text and pictures', async () => {
    await workspace.writeFile('/report.docx', readFileSync(fixturePath('core', 'report.docx')))
    expect(as(await describeFile('/report.docx'), 'html').html).toContain('Harbour Street')

    await workspace.writeFile('/mail.eml', readFileSync(fixturePath('email', '01-multipart-invoice.eml')))
    const mail = as(await describeFile('/mail.eml'), 'email')
    expect(mail.headers.map((h) => h.label)).toEqual(expect.arrayContaining(['From', 'To', 'Subject']))
    expect(mail.attachments.length).toBeGreaterThan(0)

    await workspace.writeFile('/cal.ics', readFileSync(fixturePath('calendar', 'google.ics')))
    const calendar = as(await describeFile('/cal.ics'), 'calendar')
    expect(calendar.events.length).toBeGreaterThan(0)
    expect(calendar.events[0]?.summary).not.toBe('')

    await workspace.writeFile('/notes.md', '# Title\n\nSome *text*.')
    expect(as(await describeFile('/notes.md'), 'text')).toMatchObject({
      language: 'markdown',
      truncated: false,
    })

    await workspace.writeFile('/photo.jpg', readFileSync(fixturePath('core', 'photo.jpg')))
    expect(as(await describeFile('/photo.jpg'), 'image').mimeType).toBe('image/jpeg')
    const bytes = await handlers['preview.bytes']({ path: '/photo.jpg', version: 'current' })
    expect(bytes.bytes.length).toBeGreaterThan(1000)
    await expect(handlers['preview.bytes']({ path: '/notes.md', version: 'current' })).rejects.toThrow(
      /not a picture/,
    )

    await workspace.writeFile('/data.bin', new Uint8Array([1, 2, 3]))
    expect(as(await describeFile('/data.bin'), 'unsupported').reason).toMatch(/cannot show \.bin/)
  })

  it('refuses a huge file before reading it', async () => {
    const huge = path.join(root, 'huge.txt')
    await writeFile(huge, '')
    await truncate(huge, 101 * 1024 * 1024)
    const error = await rejection(describeFile('/huge.txt'))
    expect(error.message).toMatch(/101 MB; the preview shows files up to 100 MB/)
  })
})
