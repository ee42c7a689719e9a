import type { Area } from './address'

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
}

const OPEN = Buffer.from('<sheetData')
const CLOSE = Buffer.from('</sheetData>')
const CELL_END = Buffer.from('</c>')
/** Outside the rows: these change what exceljs's cells hold (merged cells share a value, links wrap it). */
const AFTER_ROWS_UNSAFE = [Buffer.from('<mergeCell'), Buffer.from('<hyperlink')]

const LT = 0x3c
const GT = 0x3e
const SLASH = 0x2f
const QUOTE = 0x22
const APOS = 0x27

function isNameEnd(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d || byte === GT || byte === SLASH
}

/** End of the tag starting at `at` (index of its `>`), honouring quoted attribute values. */
function tagClose(xml: Buffer, at: number): number {
  let quote = 0
  for (let i = at; i < xml.length; i++) {
    const b = xml[i]!
    if (quote) {
      if (b === quote) quote = 0
    } else if (b === QUOTE || b === APOS) quote = b
    else if (b === GT) return i
  }
  return -1
}

/** The value of attribute `name` (ASCII) inside the tag [from, to), or undefined. */
function attribute(xml: Buffer, from: number, to: number, name: string): string | undefined {
  const tag = xml.toString('latin1', from, to)
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag)
  return m ? (m[1] ?? m[2]) : undefined
}

const CELL_REF = /^([A-Z]{1,3})(\d{1,7})$/

function parseRef(ref: string): { row: number; col: number } | undefined {
  const m = CELL_REF.exec(ref)
  if (!m) return undefined
  let col = 0
  for (const ch of m[1]!) col = col * 26 + ch.charCodeAt(0) - 64
  return { row: Number(m[2]), col }
}

export interface SharedStrings {
  count: number
  /** Indices of the strings exceljs reads as '' (no value): an empty `<t>` and no rich runs. */
  empty: Set<number>
  /** Neither text nor runs (`<si/>`, only phonetic runs): exceljs reads {}, a value; the whole load decides. */
  unsure: Set<number>
}

const ONLY_VALUE = /^\s*(?:<v>([^<]*)<\/v>\s*)?$/

/**
 * Whether the cell's content (between `<c ...>` and `</c>`) gives exceljs a value, or undefined when the
 * scan cannot tell for certain (anything but one plain `<v>`: formulas, inline strings, extensions).
 */
function hasValue(content: string, type: string | undefined, shared: SharedStrings): boolean | undefined {
  const m = ONLY_VALUE.exec(content)
  if (!m) return undefined
  const text = m[1]
  if (text === undefined) return false
  if (text === '' || type === 'str' || type === 'inlineStr') return undefined
  if (type === 's') {
    const index = Number(text)
    if (!Number.isInteger(index) || index < 0 || index >= shared.count) return undefined
    if (shared.unsure.has(index)) return undefined
    return !shared.empty.has(index)
  }
  return true
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
    return { area: undefined, headEnd: openEnd + 1, dataEnd: openEnd + 1 }
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
  let i = dataStart
  while (i < dataEnd) {
    const lt = xml.indexOf(LT, i)
    if (lt < 0 || lt >= dataEnd) break
    const next = xml[lt + 1]
    const close = tagClose(xml, lt)
    if (close < 0 || close > dataEnd) return undefined
    if (next === 0x72 && xml[lt + 2] === 0x6f && xml[lt + 3] === 0x77 && isNameEnd(xml[lt + 4])) {
      // <row
      const r = Number(attribute(xml, lt, close, 'r'))
      if (!Number.isInteger(r) || r < 1) return undefined
      if (headEnd < 0 && top > 0 && r > top + HEAD_ROWS) headEnd = lt
      i = close + 1
      continue
    }
    if (next === 0x63 && isNameEnd(xml[lt + 2])) {
      // <c
      const ref = parseRef(attribute(xml, lt, close, 'r') ?? '')
      if (!ref) return undefined
      let filled = false
      i = close + 1
      if (xml[close - 1] !== SLASH) {
        const end = xml.indexOf(CELL_END, i)
        if (end < 0 || end > dataEnd) return undefined
        const value = hasValue(xml.toString('utf8', i, end), attribute(xml, lt, close, 't'), shared)
        if (value === undefined) return undefined
        filled = value
        i = end + CELL_END.length
      }
      if (!filled) continue
      if (top === 0) top = ref.row
      bottom = Math.max(bottom, ref.row)
      left = Math.min(left, ref.col)
      right = Math.max(right, ref.col)
      continue
    }
    // </row>, </c> of an empty cell, row extensions: nothing to count, but nothing unknown either.
    if (next !== SLASH) return undefined
    i = close + 1
  }
  return {
    area: top === 0 ? undefined : { top, bottom, left, right },
    headEnd: headEnd < 0 ? dataEnd : headEnd,
    dataEnd,
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
