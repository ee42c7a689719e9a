import { readFileSync } from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { writeWorkbookParts } from '../../../src/main/spreadsheet/ooxml/writeWorkbookParts'
import { loadWorkbook } from '../../../src/main/spreadsheet/workbook/loadWorkbook'
import { itNeeding } from '../../support/itNeeding'
import { XLSX_CORPUS, xlsxCorpusDir, xlsxCorpusFiles } from './xlsxCorpus'

const invalid = new Set(['invalid-xml.xlsx', 'missing-bits.xlsx'])
const files = xlsxCorpusFiles((f) => f.endsWith('.xlsx') && !invalid.has(f)).map((f) =>
  path.join(xlsxCorpusDir, f),
)

async function bothWays(file: string, edit?: (wb: import('exceljs').Workbook) => void) {
  const open = await loadWorkbook(`/${path.basename(file)}`, readFileSync(file))
  const wb = open.workbook
  edit?.(wb)
  // The core properties carry the write time: pin it so both writes say the same.
  wb.created = new Date(Date.UTC(2024, 0, 2))
  wb.modified = new Date(Date.UTC(2024, 0, 3))
  const reference = readPackage(new Uint8Array(await wb.xlsx.writeBuffer()))
  const direct = await writeWorkbookParts(wb)
  const again = await writeWorkbookParts(wb)
  return { reference, direct, again, wb }
}

describe('writeWorkbookParts', () => {
  itNeeding(
    [XLSX_CORPUS],
    'writes the same parts, byte for byte, as exceljs writeBuffer for the whole corpus',
    async () => {
      expect(files.length).toBeGreaterThanOrEqual(55)
      for (const file of files) {
        const { reference, direct, again } = await bothWays(file)
        expect(Object.keys(direct), file).toEqual(Object.keys(reference))
        for (const [name, bytes] of Object.entries(reference)) {
          expect(Buffer.from(direct[name]!).equals(Buffer.from(bytes)), `${file} ${name}`).toBe(true)
          expect(Buffer.from(again[name]!).equals(Buffer.from(bytes)), `${file} ${name} (again)`).toBe(true)
        }
      }
    },
  )

  itNeeding(
    [XLSX_CORPUS],
    'streams a large sheet in chunks with the same bytes, and leaves cell styles unshared',
    async () => {
      const { reference, direct, wb } = await bothWays(
        path.join(xlsxCorpusDir, 'exceljs', 'gold.xlsx'),
        (book) => {
          const ws = book.addWorksheet('Big')
          for (let r = 1; r <= 8000; r++)
            ws.addRow([
              r,
              `text ${r} <&> "q"`,
              r % 3 === 0 ? null : r / 7,
              new Date(Date.UTC(2024, 0, (r % 28) + 1)),
            ])
          ws.getCell('B2').font = { bold: true }
        },
      )
      const sheets = Object.keys(reference).filter((n) => n.startsWith('xl/worksheets/sheet'))
      const big = sheets.find((n) => reference[n]!.byteLength > 500_000)
      expect(big).toBeDefined()
      for (const name of sheets)
        expect(Buffer.from(direct[name]!).equals(Buffer.from(reference[name]!))).toBe(true)
      const ws = wb.getWorksheet('Big')!
      ws.getCell('A5').numFmt = '0.00'
      expect(ws.getCell('A6').numFmt).toBeUndefined()
      expect(ws.getCell('B3').font).toBeUndefined()
    },
  )

  it('gives an unstyled date a date format, as writeBuffer does, after unstyled numbers', async () => {
    const wb = new ExcelJS.Workbook()
    const ws = wb.addWorksheet('S')
    ws.getCell('A1').value = 5
    ws.getCell('A2').value = new Date(Date.UTC(2024, 0, 2))
    ws.getCell('A3').value = { formula: 'A2+1', result: new Date(Date.UTC(2024, 0, 3)) } as ExcelJS.CellValue
    ws.getCell('A4').value = 7
    const reference = readPackage(new Uint8Array(await wb.xlsx.writeBuffer()))
    const direct = await writeWorkbookParts(wb)
    const sheet = Buffer.from(direct['xl/worksheets/sheet1.xml']!).toString()
    const styles = Buffer.from(direct['xl/styles.xml']!).toString()
    const xfs = [...styles.slice(styles.indexOf('<cellXfs')).matchAll(/<xf numFmtId="(\d+)"/g)].map(
      (m) => m[1],
    )
    const styleOf = (cell: string) =>
      Number(new RegExp(`<c r="${cell}"(?: s="(\\d+)")?`).exec(sheet)?.[1] ?? 0)
    expect(xfs[styleOf('A1')]).toBe('0')
    expect(xfs[styleOf('A2')]).toBe('14')
    expect(xfs[styleOf('A3')]).toBe('14')
    expect(xfs[styleOf('A4')]).toBe('0')
    for (const name of ['xl/worksheets/sheet1.xml', 'xl/styles.xml'])
      expect(Buffer.from(direct[name]!).toString(), name).toBe(Buffer.from(reference[name]!).toString())
  })
})
