import { readFileSync } from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { sheetArea, usedArea } from '../../../src/main/spreadsheet/cells/usedRange'
import { describeWorksheet } from '../../../src/main/spreadsheet/methods/describe'
import { workbookSummary } from '../../../src/main/spreadsheet/methods/summaries'
import { loadOutline } from '../../../src/main/spreadsheet/outline/outlineWorkbook'
import { scanSheet, sharedStringsInfo } from '../../../src/main/spreadsheet/outline/sheetScan'
import { loadWorkbook } from '../../../src/main/spreadsheet/workbook/loadWorkbook'
import { itNeeding } from '../../support/itNeeding'
import { XLSX_CORPUS, xlsxCorpusDir, xlsxCorpusFiles } from './xlsxCorpus'

// The outline (`open` and `describe_worksheet` without building every cell) must say exactly what the
// whole workbook says, or not answer at all.

function wholeSide(full: Awaited<ReturnType<typeof loadWorkbook>>) {
  return {
    summary: workbookSummary(full),
    sheets: full.workbook.worksheets.map((ws) => describeWorksheet(full, ws, usedArea(ws))),
  }
}

async function both(file: string, bytes: Uint8Array) {
  const outline = await loadOutline(file, bytes)
  const fullSide = wholeSide(await loadWorkbook(file, bytes))
  if (!outline) return { fullSide, outlineSide: undefined }
  // Not a plain data sheet: the whole load takes the parts the outline already inflated.
  if ('parts' in outline)
    return {
      fullSide,
      outlineSide: undefined,
      handedSide: wholeSide(await loadWorkbook(file, bytes, outline.parts)),
    }
  const { open, areas } = outline
  const outlineSide = {
    summary: workbookSummary(open, areas),
    sheets: open.workbook.worksheets.map((ws) => describeWorksheet(open, ws, sheetArea(ws, areas))),
  }
  return { fullSide, outlineSide }
}

async function generated(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook()
  const data = wb.addWorksheet('Data')
  data.getCell('C3').value = 'Id'
  data.getCell('D3').value = 'When'
  data.getCell('E3').value = 'Flag'
  for (let r = 4; r < 700; r++) {
    data.getCell(r, 3).value = r
    data.getCell(r, 4).value = new Date(Date.UTC(2024, 0, r % 28))
    data.getCell(r, 5).value = r % 3 === 0
  }
  data.getCell('H650').value = 'far right, far down'
  data.getCell('B2').value = '' // an empty string is not a value
  data.getCell('A1').style = { font: { bold: true } } // styled, empty
  data.getCell('F5').value = { error: '#N/A' }
  wb.addWorksheet('Empty')
  return new Uint8Array(await wb.xlsx.writeBuffer())
}

describe('workbook outline', () => {
  it('describes a sparse sheet longer than the rows it loads exactly as the whole workbook', async () => {
    const { fullSide, outlineSide } = await both('/gen.xlsx', await generated())
    expect(outlineSide).toBeDefined()
    expect(fullSide.sheets[0]!.usedRange).toBe('C3:H699')
    expect(outlineSide).toEqual(fullSide)
  })

  itNeeding(
    [XLSX_CORPUS],
    'answers for the corpus exactly as the whole workbook, or leaves it to the whole load',
    async () => {
      const files = xlsxCorpusFiles()
      const invalid = new Set(['exceljs/invalid-xml.xlsx', 'exceljs/missing-bits.xlsx'])
      let answered = 0
      let handed = 0
      for (const file of files.filter((f) => !invalid.has(f))) {
        const { fullSide, outlineSide, handedSide } = await both(
          `/${file}`,
          readFileSync(path.join(xlsxCorpusDir, file)),
        )
        if (handedSide) {
          handed++
          expect(handedSide, file).toEqual(fullSide)
        }
        if (!outlineSide) continue
        answered++
        expect(outlineSide, file).toEqual(fullSide)
      }
      expect(answered).toBeGreaterThanOrEqual(15)
      expect(handed).toBeGreaterThanOrEqual(5)
    },
  )

  it('does not answer for a sheet with formulas, inline strings or merged cells', () => {
    const shared = sharedStringsInfo(undefined)
    const sheet = (rows: string, after = '') =>
      new TextEncoder().encode(`<worksheet><sheetData>${rows}</sheetData>${after}</worksheet>`)
    expect(scanSheet(sheet('<row r="1"><c r="A1"><v>1</v></c></row>'), shared)?.area).toEqual({
      top: 1,
      left: 1,
      bottom: 1,
      right: 1,
    })
    expect(scanSheet(sheet('<row r="1"><c r="A1"><f>1+1</f><v>2</v></c></row>'), shared)).toBeUndefined()
    expect(
      scanSheet(sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c></row>'), shared),
    ).toBeUndefined()
    expect(
      scanSheet(
        sheet('<row r="1"><c r="A1"><v>1</v></c></row>', '<mergeCells><mergeCell ref="A1:B1"/></mergeCells>'),
        shared,
      ),
    ).toBeUndefined()
  })

  it('a cell holding a shared string without text (<si/>, which exceljs reads as {}) is left to the whole load', async () => {
    const wb = new ExcelJS.Workbook()
    const ws = wb.addWorksheet('Data')
    ws.getCell('A1').value = 'kept'
    ws.getCell('D9').value = 'EMPTIED'
    const files = unzipSync(new Uint8Array(await wb.xlsx.writeBuffer()))
    const strings = strFromU8(files['xl/sharedStrings.xml']!).replace('<si><t>EMPTIED</t></si>', '<si/>')
    expect(strings).toContain('<si/>')
    files['xl/sharedStrings.xml'] = strToU8(strings)
    expect(sharedStringsInfo(strings).unsure).toEqual(new Set([1]))
    const { fullSide, outlineSide } = await both('/si.xlsx', zipSync(files))
    expect(outlineSide).toBeUndefined()
    expect(fullSide.sheets[0]?.usedRange).toBe('A1:D9')
  })
})
