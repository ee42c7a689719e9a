import type { Worksheet } from 'exceljs'
import utils from 'exceljs/lib/utils/utils.js'
import type { Area } from '../cells/address'
import { looksLikeDateFormat, valueSnapshot } from '../cells/cellValue'
import { originalValue, readNumber, styleOf } from '../outline/originalCells'
import type { Outline } from '../outline/outlineWorkbook'
import {
  type CellTag,
  eachCell,
  findRow,
  firstRowAbove,
  isNumberType,
  readRow,
  rowEnd,
} from '../outline/sheetRows'
import type { SourceCell, SourceCells } from './source'

// A pivot's source read straight from the bytes of a sheet an outline did not load: the cells exceljs
// would hold (`originalValue`), seen as `snapshot` sees them, without building a cell or keeping a row.

interface Format {
  numFmt: string | undefined
  /** A number under this format is a number (neither exceljs nor the snapshot makes it a date). */
  plainNumber: boolean
}

function overlaps(a: Area, b: Area): boolean {
  return a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom
}

/**
 * The cells of `ws` in `area` read from its bytes, or undefined when they cannot be read so: the sheet
 * was not scanned, or writes kept by the outline fall in the area (the whole load reads them).
 */
export function outlineCells(outline: Outline, ws: Worksheet, area: Area): SourceCells | undefined {
  const sheet = outline.sheets.get(ws.id)
  if (!sheet) return undefined
  for (const call of outline.edits?.calls ?? []) {
    if (call.sheetId !== ws.id) continue
    const width = Math.max(0, ...call.values.map((line) => line.length))
    const written: Area = {
      top: call.start.row,
      left: call.start.col,
      bottom: call.start.row + call.values.length - 1,
      right: call.start.col + width - 1,
    }
    if (width > 0 && overlaps(written, area)) return undefined
  }
  const { read } = outline
  const date1904 = outline.open.date1904
  const { rows, dataEnd } = sheet.scan
  const xml = sheet.xml
  const formats = new Map<number, Format>()
  const formatOf = (id: number): Format => {
    let format = formats.get(id)
    if (!format) {
      const numFmt = styleOf(read, id).numFmt || undefined
      const plainNumber = !numFmt || !(utils.isDateFmt(numFmt) || looksLikeDateFormat(numFmt))
      format = { numFmt, plainNumber }
      formats.set(id, format)
    }
    return format
  }
  const toCell = (tag: CellTag): SourceCell => {
    const format = formatOf(tag.style)
    if (format.plainNumber && isNumberType(xml, tag))
      return { kind: 'number', value: readNumber(xml, tag.valueStart, tag.valueEnd), numFmt: format.numFmt }
    const value = originalValue(xml, tag, styleOf(read, tag.style), read, date1904)
    return valueSnapshot(value, format.numFmt, date1904)
  }
  const eachIn = (
    from: number,
    to: number,
    left: number,
    right: number,
    visit: (r: number, c: number, cell: SourceCell) => void,
  ) => {
    for (let i = firstRowAbove(rows, from - 1); i < rows.count && rows.numbers[i]! <= to; i++) {
      const r = rows.numbers[i]!
      const end = rowEnd(rows, i, dataEnd)
      const row = readRow(xml, rows.starts[i]!, end)
      if (row.empty) continue
      eachCell(xml, row.contentStart, end, (tag) => {
        if (tag.valueStart < 0 || tag.col < left || tag.col > right) return
        const cell = toCell(tag)
        if (cell.kind !== 'empty') visit(r, tag.col, cell)
      })
    }
  }
  return {
    cell(r, c) {
      let found: SourceCell | undefined
      if (findRow(rows, r) >= 0)
        eachIn(r, r, c, c, (_r, _c, cell) => {
          found = cell
        })
      return found
    },
    each(area, visit) {
      eachIn(area.top, area.bottom, area.left, area.right, visit)
    },
  }
}
