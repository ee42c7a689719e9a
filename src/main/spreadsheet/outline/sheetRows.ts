// Reads the rows of a worksheet part straight from its bytes: where a row is, its style, and each
// cell's column, style, type and value. The outline's scan (sheetScan.ts) reads every row this way, and
// edits and saves of a workbook that was only outlined read the rows they need, without building cells.
// Plain loops over bytes, one reused object per pass: a 50,000-row sheet has 600,000 cells.

const LT = 0x3c
const GT = 0x3e
const SLASH = 0x2f
const EQ = 0x3d
const QUOTE = 0x22
const APOS = 0x27
const LOWER_B = 0x62
const LOWER_C = 0x63
const LOWER_E = 0x65
const LOWER_R = 0x72
const LOWER_S = 0x73
const LOWER_T = 0x74
const LOWER_V = 0x76
const UPPER_A = 0x41
const UPPER_Z = 0x5a
const DIGIT_0 = 0x30
const DIGIT_9 = 0x39

export function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d
}

/** True when `byte` can follow an element name (`<c` then a space, `>` or `/`). */
export function isNameEnd(byte: number | undefined): boolean {
  return isSpace(byte) || byte === GT || byte === SLASH
}

/**
 * The `r`, `s` and `t` attributes of the last tag read (value offsets, -1 when absent): the only ones
 * rows and cells are read by. One object, reused for every tag of a pass.
 */
export class TagAttributes {
  rStart = -1
  rEnd = -1
  sStart = -1
  sEnd = -1
  tStart = -1
  tEnd = -1

  /**
   * Reads the attributes of the tag whose name ends at `from`; returns the offset of the tag's `>`, or
   * -1 when the tag does not end before `limit`. Quoted values may hold any byte but their quote.
   */
  read(xml: Uint8Array, from: number, limit: number): number {
    this.rStart = -1
    this.sStart = -1
    this.tStart = -1
    let i = from
    for (;;) {
      let byte = xml[i]
      while (isSpace(byte)) byte = xml[++i]
      if (i >= limit) return -1
      if (byte === GT) return i
      if (byte === SLASH) return xml[i + 1] === GT ? i + 1 : -1
      const nameStart = i
      while (i < limit && byte !== EQ && !isSpace(byte)) byte = xml[++i]
      const single = i - nameStart === 1 ? xml[nameStart] : 0
      while (i < limit && byte !== QUOTE && byte !== APOS) byte = xml[++i]
      const valueStart = i + 1
      let j = valueStart
      while (j < limit && xml[j] !== byte) j++
      if (j >= limit) return -1
      if (single === LOWER_R) {
        this.rStart = valueStart
        this.rEnd = j
      } else if (single === LOWER_S) {
        this.sStart = valueStart
        this.sEnd = j
      } else if (single === LOWER_T) {
        this.tStart = valueStart
        this.tEnd = j
      }
      i = j + 1
    }
  }
}

/** A non-negative integer written in `xml` between `start` and `end`; NaN when it is not one. */
export function readInteger(xml: Uint8Array, start: number, end: number): number {
  if (end <= start || end - start > 15) return Number.NaN
  let value = 0
  for (let i = start; i < end; i++) {
    const byte = xml[i]!
    if (byte < DIGIT_0 || byte > DIGIT_9) return Number.NaN
    value = value * 10 + (byte - DIGIT_0)
  }
  return value
}

/** The ASCII text between `start` and `end` (numbers, error codes). */
export function asciiText(xml: Uint8Array, start: number, end: number): string {
  let text = ''
  for (let i = start; i < end; i++) text += String.fromCharCode(xml[i]!)
  return text
}

/** The column of a reference (`B12` -> 2) written between `start` and `end`; 0 when it has no letters. */
export function readColumn(xml: Uint8Array, start: number, end: number): number {
  let col = 0
  for (let i = start; i < end; i++) {
    const byte = xml[i]!
    if (byte < UPPER_A || byte > UPPER_Z) break
    col = col * 26 + byte - UPPER_A + 1
  }
  return col
}

/** Where each row element of a part starts; `ordered` when row numbers only grow. */
export interface RowIndex {
  count: number
  numbers: Int32Array
  starts: Int32Array
  ordered: boolean
}

/** The index of row `number` in `index`, or -1 (the index must be ordered). */
export function findRow(index: RowIndex, number: number): number {
  let low = 0
  let high = index.count - 1
  while (low <= high) {
    const mid = (low + high) >>> 1
    const at = index.numbers[mid]!
    if (at === number) return mid
    if (at < number) low = mid + 1
    else high = mid - 1
  }
  return -1
}

/** The index of the first row numbered above `number` (`index.count` when there is none). */
export function firstRowAbove(index: RowIndex, number: number): number {
  let low = 0
  let high = index.count
  while (low < high) {
    const mid = (low + high) >>> 1
    if (index.numbers[mid]! <= number) low = mid + 1
    else high = mid
  }
  return low
}

/** Where the element of the i-th row ends: the next row's start, or the end of the rows. */
export function rowEnd(index: RowIndex, i: number, dataEnd: number): number {
  return i + 1 < index.count ? index.starts[i + 1]! : dataEnd
}

/** The cell a visitor is shown; one object reused for every cell of a pass. */
export interface CellTag {
  col: number
  /** Style id, 0 when the cell has none. */
  style: number
  /** Where the `s` value is written (-1: no `s` attribute). */
  styleStart: number
  styleEnd: number
  /** Where the `t` value is written (-1: no `t` attribute). */
  typeStart: number
  typeEnd: number
  /** Offsets of the text inside `<v>` (-1 when the cell has no value). */
  valueStart: number
  valueEnd: number
  /** Offset just past the cell element. */
  end: number
}

export interface RowTag {
  /** The row's `r` (NaN when it has none or the tag does not end). */
  number: number
  /** The row's style id (0: none) and where it is written (-1: no `s` attribute). */
  style: number
  styleStart: number
  styleEnd: number
  /** Offset just past the row's start tag; the row's cells follow (none if it closed itself). */
  contentStart: number
  empty: boolean
}

const rowAttributes = new TagAttributes()

/** Reads the start tag of the row element at `start` (its `<row`), which ends before `end`. */
export function readRow(xml: Uint8Array, start: number, end: number): RowTag {
  const a = rowAttributes
  const gt = a.read(xml, start + 4, end)
  return {
    number: gt < 0 || a.rStart < 0 ? Number.NaN : readInteger(xml, a.rStart, a.rEnd),
    style: a.sStart < 0 ? 0 : readInteger(xml, a.sStart, a.sEnd),
    styleStart: a.sStart,
    styleEnd: a.sEnd,
    contentStart: gt + 1,
    empty: gt < 0 || xml[gt - 1] === SLASH,
  }
}

const cellAttributes = new TagAttributes()
const shownCell: CellTag = {
  col: 0,
  style: 0,
  styleStart: -1,
  styleEnd: -1,
  typeStart: -1,
  typeEnd: -1,
  valueStart: -1,
  valueEnd: -1,
  end: 0,
}

function nextTag(xml: Uint8Array, from: number, end: number): number {
  let i = from
  while (i < end && xml[i] !== LT) i++
  return i
}

function skipSpace(xml: Uint8Array, from: number): number {
  let i = from
  while (isSpace(xml[i])) i++
  return i
}

function isEndTag(xml: Uint8Array, at: number, name: number): boolean {
  return xml[at] === LT && xml[at + 1] === SLASH && xml[at + 2] === name && xml[at + 3] === GT
}

const ROW_END = [LT, SLASH, LOWER_R, 0x6f, 0x77, GT]

function isRowEnd(xml: Uint8Array, at: number): boolean {
  for (let k = 0; k < ROW_END.length; k++) if (xml[at + k] !== ROW_END[k]) return false
  return true
}

/** Reads the content of the cell whose start tag ends at `gt` into `cell`; false when it is more than one `<v>`. */
function readContent(xml: Uint8Array, gt: number, end: number, cell: CellTag): boolean {
  cell.valueStart = -1
  cell.valueEnd = -1
  if (xml[gt - 1] === SLASH) {
    cell.end = gt + 1
    return true
  }
  let at = skipSpace(xml, gt + 1)
  if (xml[at] === LT && xml[at + 1] === LOWER_V && xml[at + 2] === GT) {
    cell.valueStart = at + 3
    cell.valueEnd = nextTag(xml, at + 3, end)
    if (!isEndTag(xml, cell.valueEnd, LOWER_V)) return false
    at = skipSpace(xml, cell.valueEnd + 4)
  }
  if (!isEndTag(xml, at, LOWER_C)) return false
  cell.end = at + 4
  return true
}

/**
 * Visits the cells of the row whose content starts at `from`, up to the row's `</row>` (or `end`).
 * Returns the offset after `</row>` (`end` when it was not met), or -1 when the row holds anything else
 * than cells of at most one `<v>` each (the rows of a plain data sheet, see sheetScan.ts).
 */
export function eachCell(xml: Uint8Array, from: number, end: number, visit: (cell: CellTag) => void): number {
  const a = cellAttributes
  const cell = shownCell
  let i = nextTag(xml, from, end)
  while (i < end) {
    if (isRowEnd(xml, i)) return i + ROW_END.length
    if (xml[i + 1] !== LOWER_C || !isNameEnd(xml[i + 2])) return -1
    const gt = a.read(xml, i + 2, end)
    if (gt < 0) return -1
    cell.col = a.rStart < 0 ? 0 : readColumn(xml, a.rStart, a.rEnd)
    cell.style = a.sStart < 0 ? 0 : readInteger(xml, a.sStart, a.sEnd)
    cell.styleStart = a.sStart
    cell.styleEnd = a.sEnd
    cell.typeStart = a.tStart
    cell.typeEnd = a.tEnd
    if (!readContent(xml, gt, end, cell)) return -1
    visit(cell)
    i = nextTag(xml, cell.end, end)
  }
  return end
}

/** True when the cell's type attribute is exactly `type`. */
export function hasType(xml: Uint8Array, cell: CellTag, type: string): boolean {
  if (cell.typeStart < 0 || cell.typeEnd - cell.typeStart !== type.length) return false
  for (let k = 0; k < type.length; k++) if (xml[cell.typeStart + k] !== type.charCodeAt(k)) return false
  return true
}

/** True when the cell's type attribute is exactly the one-letter type `letter` (`s`, `b`, `e`). */
export function isType(xml: Uint8Array, cell: CellTag, letter: 's' | 'b' | 'e'): boolean {
  return cell.typeEnd - cell.typeStart === 1 && xml[cell.typeStart] === letter.charCodeAt(0)
}

/** True when exceljs reads the cell's value as a number: any type but `s`, `b` and `e` (the scan refused `str` and `inlineStr`). */
export function isNumberType(xml: Uint8Array, cell: CellTag): boolean {
  if (cell.typeStart < 0 || cell.typeEnd - cell.typeStart !== 1) return true
  const type = xml[cell.typeStart]
  return type !== LOWER_S && type !== LOWER_B && type !== LOWER_E
}
