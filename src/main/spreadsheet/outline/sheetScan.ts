import { type Area, MAX_COLUMNS } from '../cells/address'
import {
  type CellTag,
  eachCell,
  hasType,
  isNameEnd,
  isType,
  type RowIndex,
  readInteger,
  readRow,
} from './sheetRows'

// A pass over a worksheet part's bytes that finds what `open` and `describe_worksheet` need without
// building exceljs cells: the used area and where the rows `describe` reads end. It answers only for
// plain data sheets, where the answer is certainly the one exceljs's cells would give; for anything else
// (formulas, inline or formula strings, merged cells, hyperlinks, unusual markup) it gives up and the
// workbook is loaded whole.

/** Rows after the first used one that `describe` reads (header search, type scan, samples). */
export const HEAD_ROWS = 206

export interface SheetScan {
  area: Area | undefined
  /**
   * Byte offsets in the sheetData element's content: the rows before `headEnd` are every row describe
   * reads; `dataEnd` is where the element closes.
   */
  headEnd: number
  dataEnd: number
  /** Every row element in part order: its number and the offset of its `<row`. */
  rows: RowIndex
}

class RowIndexBuilder {
  private numbers = new Int32Array(1024)
  private starts = new Int32Array(1024)
  private count = 0
  private ordered = true

  add(number: number, start: number): void {
    if (this.count === this.numbers.length) {
      this.numbers = grown(this.numbers)
      this.starts = grown(this.starts)
    }
    if (this.count > 0 && number <= this.numbers[this.count - 1]!) this.ordered = false
    this.numbers[this.count] = number
    this.starts[this.count] = start
    this.count++
  }

  build(): RowIndex {
    return {
      count: this.count,
      numbers: this.numbers.slice(0, this.count),
      starts: this.starts.slice(0, this.count),
      ordered: this.ordered,
    }
  }
}

function grown(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const next = new Int32Array(array.length * 2)
  next.set(array)
  return next
}

const OPEN = Buffer.from('<sheetData')
const CLOSE = Buffer.from('</sheetData>')
/** Outside the rows: these change what exceljs's cells hold (merged cells share a value, links wrap it). */
const AFTER_ROWS_UNSAFE = [Buffer.from('<mergeCell'), Buffer.from('<hyperlink')]

const LT = 0x3c
const SLASH = 0x2f

/** End of the tag starting at `at` (index of its `>`), honouring quoted attribute values. */
function tagClose(xml: Buffer, at: number): number {
  let quote = 0
  for (let i = at; i < xml.length; i++) {
    const b = xml[i]!
    if (quote) {
      if (b === quote) quote = 0
    } else if (b === 0x22 || b === 0x27) quote = b
    else if (b === 0x3e) return i
  }
  return -1
}

export interface SharedStrings {
  count: number
  /** Indices of the strings exceljs reads as '' (no value): an empty `<t>` and no rich runs. */
  empty: Set<number>
  /** Neither text nor runs (`<si/>`, only phonetic runs): exceljs reads {}, a value; the whole load decides. */
  unsure: Set<number>
}

/** The used area of a sheet's rows, grown cell by cell. */
class UsedArea {
  top = 0
  bottom = 0
  left = Number.POSITIVE_INFINITY
  right = 0

  add(row: number, col: number): void {
    if (this.top === 0) this.top = row
    this.bottom = Math.max(this.bottom, row)
    this.left = Math.min(this.left, col)
    this.right = Math.max(this.right, col)
  }

  area(): Area | undefined {
    return this.top === 0
      ? undefined
      : { top: this.top, bottom: this.bottom, left: this.left, right: this.right }
  }
}

/**
 * Whether a cell gives exceljs a value, or undefined when the scan cannot tell for certain (formula or
 * inline strings, an empty `<v>`, a shared string exceljs may read as an object).
 */
function cellFilled(xml: Uint8Array, cell: CellTag, shared: SharedStrings): boolean | undefined {
  if (cell.valueStart < 0) return false
  if (cell.valueEnd === cell.valueStart || hasType(xml, cell, 'str') || hasType(xml, cell, 'inlineStr'))
    return undefined
  if (!isType(xml, cell, 's')) return true
  const index = readInteger(xml, cell.valueStart, cell.valueEnd)
  if (Number.isNaN(index) || index >= shared.count || shared.unsure.has(index)) return undefined
  return !shared.empty.has(index)
}

/** Scans a worksheet part; undefined when it is not a plain data sheet (see the top of the file). */
export function scanSheet(bytes: Uint8Array, shared: SharedStrings): SheetScan | undefined {
  const xml = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const open = xml.indexOf(OPEN)
  if (open < 0 || !isNameEnd(xml[open + OPEN.length])) return undefined
  const openEnd = tagClose(xml, open)
  if (openEnd < 0) return undefined
  if (xml[openEnd - 1] === SLASH) {
    const tail = xml.subarray(openEnd + 1)
    if (AFTER_ROWS_UNSAFE.some((t) => tail.includes(t))) return undefined
    return {
      area: undefined,
      headEnd: openEnd + 1,
      dataEnd: openEnd + 1,
      rows: new RowIndexBuilder().build(),
    }
  }
  const dataStart = openEnd + 1
  const dataEnd = xml.indexOf(CLOSE, dataStart)
  if (dataEnd < 0 || xml.indexOf(OPEN, dataEnd) >= 0) return undefined
  const tail = xml.subarray(dataEnd)
  if (AFTER_ROWS_UNSAFE.some((t) => tail.includes(t))) return undefined
  const used = new UsedArea()
  let headEnd = -1
  const rows = new RowIndexBuilder()
  let row = 0
  let refused = false
  const visit = (cell: CellTag) => {
    const filled = cellFilled(bytes, cell, shared)
    if (filled === undefined || cell.col < 1 || cell.col > MAX_COLUMNS) refused = true
    else if (filled) used.add(row, cell.col)
  }
  let i = dataStart
  while (i < dataEnd) {
    const lt = xml.indexOf(LT, i)
    if (lt < 0 || lt >= dataEnd) break
    if (xml[lt + 1] === 0x72 && xml[lt + 2] === 0x6f && xml[lt + 3] === 0x77 && isNameEnd(xml[lt + 4])) {
      // <row
      const tag = readRow(bytes, lt, dataEnd)
      row = tag.number
      if (!(row >= 1)) return undefined
      if (headEnd < 0 && used.top > 0 && row > used.top + HEAD_ROWS) headEnd = lt
      rows.add(row, lt)
      // The rows as the bytes they were given (not the Buffer view): later readers get the same kind of
      // array, so the code V8 optimised here serves them too.
      i = tag.empty ? tag.contentStart : eachCell(bytes, tag.contentStart, dataEnd, visit)
      if (i < 0 || refused) return undefined
      continue
    }
    // A closing tag between rows is nothing to count; anything else is not a plain data sheet.
    const close = tagClose(xml, lt)
    if (close < 0 || close > dataEnd || xml[lt + 1] !== SLASH) return undefined
    i = close + 1
  }
  return {
    area: used.area(),
    headEnd: headEnd < 0 ? dataEnd : headEnd,
    dataEnd,
    rows: rows.build(),
  }
}

/** What the scan needs of the shared strings: how many, which are '' and which the scan cannot tell. */
export function sharedStringsInfo(xml: string | undefined): SharedStrings {
  const empty = new Set<number>()
  const unsure = new Set<number>()
  let count = 0
  if (xml)
    for (const m of xml.matchAll(/<si\s*\/>|<si\b[^>]*>([\s\S]*?)<\/si>/g)) {
      const body = (m[1] ?? '').replace(/<rPh\b[\s\S]*?<\/rPh>|<phoneticPr\b[^>]*>/g, '')
      if (!/<r\b/.test(body) && !/<t\b[^>]*>[^<]+<\/t>/.test(body))
        (/<t\b/.test(body) ? empty : unsure).add(count)
      count++
    }
  return { count, empty, unsure }
}
