import { readFileSync } from 'node:fs'
import path from 'node:path'
import { strFromU8 } from 'fflate'
import { describe, expect, it } from 'vitest'
import {
  renameSheetInFormula,
  slideFormula,
  spliceFormula,
} from '../../../src/main/spreadsheet/formulas/formulaRefs'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { createWorkbook, loadWorkbook } from '../../../src/main/spreadsheet/workbook/loadWorkbook'
import { saveWorkbook } from '../../../src/main/spreadsheet/workbook/saveWorkbook'
import { itNeeding } from '../../support/itNeeding'
import { XLSX_CORPUS, xlsxCorpusDir } from './xlsxCorpus'

describe('formula references', () => {
  it('slide relative parts only and skip strings, functions and absolute parts', () => {
    expect(slideFormula('SUM(A1:B2)+$C$3+C$4+"A1"+LOG10(D5)', 1, 2)).toBe(
      'SUM(C2:D3)+$C$3+E$4+"A1"+LOG10(F6)',
    )
    expect(slideFormula("'My Sheet'!A1*2", 3, 0)).toBe("'My Sheet'!A4*2")
    expect(slideFormula('A1', -1, 0)).toBe('#REF!')
  })

  it('splice inserts and deletes like a spreadsheet', () => {
    const ins = { sheet: 'S', axis: 'row' as const, at: 3, count: 2 }
    expect(spliceFormula('SUM(A1:A5)+A2+A3+Other!A4', 'S', ins)).toBe('SUM(A1:A7)+A2+A5+Other!A4')
    expect(spliceFormula('S!A4', 'T', ins)).toBe('S!A6')
    const del = { sheet: 'S', axis: 'row' as const, at: 2, count: -2 }
    expect(spliceFormula('SUM(A1:A5)+A2+A4+SUM(A2:A3)', 'S', del)).toBe('SUM(A1:A3)+#REF!+A2+SUM(#REF!)')
    expect(spliceFormula('SUM(B:B)+C1', 'S', { sheet: 'S', axis: 'col', at: 2, count: 1 })).toBe(
      'SUM(C:C)+D1',
    )
  })

  it('renames sheet references, quoting when needed', () => {
    expect(renameSheetInFormula("Data!A1+'Data'!B2+data!C3+Other!A1", 'Data', 'New Data')).toBe(
      "'New Data'!A1+'New Data'!B2+'New Data'!C3+Other!A1",
    )
  })
})

describe('engine', () => {
  itNeeding(
    [XLSX_CORPUS],
    'recomputes corpus formulas (shared formulas included) after an input changes',
    async () => {
      const open = await loadWorkbook(
        '/fib.xlsx',
        readFileSync(path.join(xlsxCorpusDir, 'exceljs/fibonacci.xlsx')),
      )
      expect(open.calc().uncalculated).toEqual([])
      const ws = open.workbook.worksheets[0]!
      expect(ws.getCell('B19').result).toBe(4181)
      ws.getCell('B1').value = 2
      ws.getCell('B2').value = 2
      open.changed()
      const report = open.calc()
      expect(report).toEqual({ calculated: 35, uncalculated: [] })
      expect(ws.getCell('B19').result).toBe(8362)
      expect(ws.getCell('A19').result).toBe(19)
    },
  )

  it('places formulas in the last column (XFD) at their own cell', async () => {
    const open = await createWorkbook('/xfd.xlsx', 'S')
    const ws = open.workbook.worksheets[0]!
    ws.getCell(5, 16_384).value = { formula: 'ROW()' } as never
    ws.getCell('A1').value = { formula: 'SUM(XFD1:XFD9)*2' } as never
    open.changed()
    expect(open.calc()).toEqual({ calculated: 2, uncalculated: [] })
    expect(ws.getCell(5, 16_384).result).toBe(5)
    expect(ws.getCell('A1').result).toBe(10)
  })

  it('the save pass unquotes quoted number formats in touched cells', async () => {
    const open = await createWorkbook('/q.xlsx', 'S')
    const ws = open.workbook.worksheets[0]!
    ws.getCell('A1').value = 1234.5
    ws.getCell('A1').numFmt = '"$#,##0.00"'
    open.changed(ws, { top: 1, left: 1, bottom: 1, right: 1 })
    let bytes: Uint8Array | undefined
    const report = await saveWorkbook(open, '/q.xlsx', async (_p, b) => {
      bytes = b
      return {}
    })
    expect(report.pass.unquoted).toEqual(['S!A1'])
    expect(strFromU8(readPackage(bytes!)['xl/styles.xml']!)).toContain('formatCode="$#,##0.00"')
  })

  itNeeding(
    [XLSX_CORPUS],
    'loads a workbook whose validation covers a whole sheet (exceljs alone hangs) and keeps the validation',
    async () => {
      const source = readFileSync(path.join(xlsxCorpusDir, 'exceljs/test-issue-1842.xlsx'))
      const open = await loadWorkbook('/v.xlsx', source)
      open.workbook.worksheets[0]!.getCell('B2').value = 'x'
      open.changed()
      let bytes: Uint8Array | undefined
      const report = await saveWorkbook(open, '/v.xlsx', async (_p, b) => {
        bytes = b
        return {}
      })
      expect(report.carried).toContain('Sheet1: dataValidations')
      expect(strFromU8(readPackage(bytes!)['xl/worksheets/sheet1.xml']!)).toContain('sqref="A1:XFD1048576"')
    },
  )
})

describe('1904 date system', () => {
  itNeeding([XLSX_CORPUS], 'shows dates of a 1904 workbook as the dates they are', async () => {
    const { areaReceipt } = await import('../../../src/main/spreadsheet/workbook/receipt')
    const open = await loadWorkbook('/1904.xlsx', readFileSync(path.join(xlsxCorpusDir, 'exceljs/1904.xlsx')))
    expect(open.date1904).toBe(true)
    const ws = open.workbook.worksheets[0]!
    expect(areaReceipt(open, ws, { top: 4, left: 2, bottom: 4, right: 2 })).toMatchObject({
      values: [['01-01-04']],
      types: { B4: 'date' },
    })
  })
})

describe('drawing anchors', () => {
  it('move with inserted and deleted rows and columns', async () => {
    const { shiftIndex, shiftDrawingAnchors } = await import(
      '../../../src/main/spreadsheet/ooxml/anchorShift'
    )
    expect(shiftIndex(8, 'row', [{ axis: 'row', at: 1, count: 2 }])).toBe(10)
    expect(shiftIndex(8, 'row', [{ axis: 'row', at: 10, count: 2 }])).toBe(8)
    expect(shiftIndex(8, 'row', [{ axis: 'row', at: 2, count: -3 }])).toBe(5)
    expect(shiftIndex(8, 'row', [{ axis: 'row', at: 8, count: -3 }])).toBe(7)
    expect(shiftIndex(4, 'col', [{ axis: 'row', at: 1, count: 5 }])).toBe(4)
    const xml =
      '<xdr:from><xdr:col>4</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>8</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>11</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>23</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>'
    expect(
      shiftDrawingAnchors(xml, [
        { axis: 'col', at: 1, count: 1 },
        { axis: 'row', at: 1, count: 2 },
      ]),
    ).toBe(
      '<xdr:from><xdr:col>5</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>10</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>12</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>25</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>',
    )
  })
})
