import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { type CellInput, plainValue, writeCell } from '../../../src/main/spreadsheet/cells/writeCell'

// `plainValue` decides which writes an outlined workbook may keep without loading (outlineEdits.ts):
// whatever it accepts, `writeCell` must store exactly as it says, without touching the cell's style.

const inputs: CellInput[] = [
  12,
  -0.5,
  true,
  false,
  null,
  '',
  'edit 1-2',
  'e',
  'e5',
  'E+3',
  'e-2x',
  'eat',
  'x1',
  'Zebra',
  '12%',
  '$1,200',
  '2024-03-01',
  ' 42',
  '0042',
  "'0042",
  "'",
  "'=SUM(A1)",
  '=',
  '=A1*2',
  'TRUE',
  '1e3',
  '€5',
  'ünïcode',
  '  spaced  ',
]

// The inputs it accepts; the refused ones are checked in the last test.
const accepted = inputs.filter((input) => plainValue(input) !== undefined)

describe('plainValue', () => {
  it('accepts most of the inputs, so the test below checks many', () => {
    expect(accepted.length).toBeGreaterThanOrEqual(15)
  })

  it.each(accepted.map((input) => [JSON.stringify(input), input]))(
    '%s: what it accepts, writeCell stores as it says with the style untouched',
    (_, input) => {
      const ws = new ExcelJS.Workbook().addWorksheet('S')
      const cell = ws.getCell('A1')
      const plain = plainValue(input as CellInput)
      writeCell(cell, input as CellInput)
      expect(cell.value).toBe(plain)

      expect(cell.numFmt).toBeUndefined()
    },
  )

  it('refuses what needs the whole workbook: formulas, clearing, number-typed text', () => {
    for (const input of ['=A1*2', null, '', '12%', '$1,200', '2024-03-01', '1e3', 'e5', ' 42'] as CellInput[])
      expect(plainValue(input), JSON.stringify(input)).toBeUndefined()
    for (const input of ['edit 1-2', 'e', 'eat', 'Zebra', "'0042", '=', 'TRUE'] as CellInput[])
      expect(plainValue(input), JSON.stringify(input)).toBeDefined()
  })
})
