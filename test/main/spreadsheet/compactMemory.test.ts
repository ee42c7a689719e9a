import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { compressedParts, readPackage, writePackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { zipMismatch } from '../../../src/main/spreadsheet/ooxml/verifyPackage'
import { SHARED_EMPTY_STYLE } from '../../../src/main/spreadsheet/outline/compactCells'
import { loadWorkbook } from '../../../src/main/spreadsheet/workbook/loadWorkbook'

async function bookBytes(rows: number): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet('Data')
  for (let r = 1; r <= rows; r++) ws.addRow([r, `name ${r}`, r % 2 === 0])
  ws.getCell('A1').numFmt = '0.00'
  return new Uint8Array(await wb.xlsx.writeBuffer())
}

describe('what a loaded workbook holds', () => {
  it('unstyled cells share one frozen style and their address; styled and written cells keep their own', async () => {
    const open = await loadWorkbook('/a.xlsx', await bookBytes(20))
    const ws = open.workbook.getWorksheet('Data')!
    const plain = ws.getCell('B2')
    expect(plain.style).toBe(SHARED_EMPTY_STYLE)
    expect(ws.getCell('C3').style).toBe(SHARED_EMPTY_STYLE)
    expect(Object.isFrozen(plain.style)).toBe(true)
    expect(ws.getCell('A1').numFmt).toBe('0.00')
    expect(ws.getCell('B2').value).toBe('name 2')
    expect(ws.getCell('C4').value).toBe(true)
    const model = (plain as unknown as { _value: { model: { address: string } } })._value.model
    expect(model.address).toBe('B2')
    // A style given to one cell through a new object leaves the others unstyled.
    plain.style = { ...plain.style, font: { bold: true } }
    expect(ws.getCell('B3').font).toBeUndefined()
    expect(SHARED_EMPTY_STYLE).toEqual({})
  })
})

describe('compressedParts', () => {
  it('keeps small parts, inflates big ones on each read with the same bytes, and takes writes', async () => {
    const big = new Uint8Array(300_000).fill(65)
    const parts = { 'small.xml': new Uint8Array([1, 2, 3]), 'big.xml': big, 'xl/workbook.xml': big }
    const zip = await writePackage(parts)
    const kept = compressedParts(zip, readPackage(zip))
    expect(Object.keys(kept).sort()).toEqual(['big.xml', 'small.xml', 'xl/workbook.xml'])
    expect(Object.getOwnPropertyDescriptor(kept, 'small.xml')?.value).toBeInstanceOf(Uint8Array)
    // The workbook part is read for every sheet the carry-over maps: kept inflated, whatever its size.
    expect(Object.getOwnPropertyDescriptor(kept, 'xl/workbook.xml')?.value).toBeInstanceOf(Uint8Array)
    expect(Object.getOwnPropertyDescriptor(kept, 'big.xml')?.get).toBeTypeOf('function')
    expect(Buffer.from(kept['big.xml']!).equals(Buffer.from(big))).toBe(true)
    kept['big.xml'] = new Uint8Array([9])
    expect([...kept['big.xml']!]).toEqual([9])
  })

  it('the zip read-back still finds a big part that differs', async () => {
    const parts = { 'a.xml': new Uint8Array(2_000_000).fill(66), 'b.xml': new Uint8Array([1]) }
    const zip = await writePackage(parts)
    expect(zipMismatch(zip, parts)).toBeUndefined()
    expect(zipMismatch(zip, { ...parts, 'a.xml': new Uint8Array(2_000_000).fill(67) })).toBe('a.xml')
    expect(zipMismatch(zip, { 'a.xml': parts['a.xml'] })).toBe('the part list differs')
  })
})
