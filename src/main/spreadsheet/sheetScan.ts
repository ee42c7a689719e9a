import type { Area } from './address'
import { asciiText, isNameEnd, isSpace, readColumn, readInteger, TagAttributes } from './sheetRows'

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

/** Where each row element starts; `ordered` when row numbers only grow (edits without a load need it). */
export interface RowIndex {
  count: number
  numbers: Int32Array
  starts: Int32Array
  ordered: boolean
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
const LOWER_S = 0x73

/** The row and column of a plain reference (`AB12`: 1-3 capitals, 1-7 digits), or undefined. */
function readRef(xml: Uint8Array, start: number, end: number): { row: number; col: number } | undefined {
  let letters = 0
  while (start + letters < end && xml[start + letters]! >= 0x41 && xml[start + letters]! <= 0x5a) letters++
  if (letters < 1 || letters > 3 || end - start - letters > 7) return undefined
  const row = readInteger(xml, start + letters, end)
  return Number.isNaN(row) ? undefined : { row, col: readColumn(xml, start, start + letters) }
}

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

/** The cell's type attribute: `s`, `str` or `inlineStr` matter to the scan; anything else is a plain value. */
function typeOf(xml: Uint8Array, tags: TagAttributes): 's' | 'other' | 'text' {
  if (tags.tStart < 0) return 'other'
  const length = tags.tEnd - tags.tStart
  if (length === 1 && xml[tags.tStart] === LOWER_S) return 's'
  const text = asciiText(xml, tags.tStart, tags.tEnd)
  return text === 'str' || text === 'inlineStr' ? 'text' : 'other'
}

/**
 * Whether the content of the cell starting at `from` (after its start tag) gives exceljs a value, and
 * where the cell ends; undefined when the scan cannot tell for certain (anything but one plain `<v>`:
 * formulas, inline strings, extensions).
 */
function cellContent(
  xml: Buffer,
  from: number,
  limit: number,
  type: 's' | 'other' | 'text',
  shared: SharedStrings,
): { filled: boolean; end: number } | undefined {
  let i = from
  while (isSpace(xml[i])) i++
  let filled = false
  if (xml[i] === LT && xml[i + 1] === 0x76 && xml[i + 2] === 0x3e) {
    // <v>
    const textStart = i + 3
    const textEnd = xml.indexOf(LT, textStart)
    if (textEnd < 0 || textEnd >= limit || textEnd === textStart || type === 'text') return undefined
    if (xml[textEnd + 1] !== SLASH || xml[textEnd + 2] !== 0x76 || xml[textEnd + 3] !== 0x3e) return undefined
    if (type === 's') {
      const index = readInteger(xml, textStart, textEnd)
      if (Number.isNaN(index) || index >= shared.count || shared.unsure.has(index)) return undefined
      filled = !shared.empty.has(index)
    } else filled = true
    i = textEnd + 4
    while (isSpace(xml[i])) i++
  }
  if (xml[i] !== LT || xml[i + 1] !== SLASH || xml[i + 2] !== 0x63 || xml[i + 3] !== 0x3e) return undefined
  return { filled, end: i + 4 }
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
  let top = 0
  let bottom = 0
  let left = Number.POSITIVE_INFINITY
  let right = 0
  let headEnd = -1
  const rows = new RowIndexBuilder()
  const tags = new TagAttributes()
  let i = dataStart
  while (i < dataEnd) {
    const lt = xml.indexOf(LT, i)
    if (lt < 0 || lt >= dataEnd) break
    const next = xml[lt + 1]
    if (next === 0x72 && xml[lt + 2] === 0x6f && xml[lt + 3] === 0x77 && isNameEnd(xml[lt + 4])) {
      // <row
      const close = tags.read(xml, lt + 4, dataEnd)
      const r = close < 0 || tags.rStart < 0 ? Number.NaN : readInteger(xml, tags.rStart, tags.rEnd)
      if (!(r >= 1)) return undefined
      if (headEnd < 0 && top > 0 && r > top + HEAD_ROWS) headEnd = lt
      rows.add(r, lt)
      i = close + 1
      continue
    }
    if (next === 0x63 && isNameEnd(xml[lt + 2])) {
      // <c
      const close = tags.read(xml, lt + 2, dataEnd)
      const ref = close < 0 || tags.rStart < 0 ? undefined : readRef(xml, tags.rStart, tags.rEnd)
      if (!ref) return undefined
      let filled = false
      i = close + 1
      if (xml[close - 1] !== SLASH) {
        const content = cellContent(xml, i, dataEnd, typeOf(xml, tags), shared)
        if (!content) return undefined
        filled = content.filled
        i = content.end
      }
      if (!filled) continue
      if (top === 0) top = ref.row
      bottom = Math.max(bottom, ref.row)
      left = Math.min(left, ref.col)
      right = Math.max(right, ref.col)
      continue
    }
    // </row>, row extensions: nothing to count, but nothing unknown either.
    const close = tagClose(xml, lt)
    if (close < 0 || close > dataEnd || next !== SLASH) return undefined
    i = close + 1
  }
  return {
    area: top === 0 ? undefined : { top, bottom, left, right },
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
