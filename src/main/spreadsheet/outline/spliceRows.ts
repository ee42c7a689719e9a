import { type Area, areaName } from '../cells/address'
import type { ReadContext } from '../ooxml/exceljsLoad'
import { rootNamespaces } from '../ooxml/sheetXml'
import type { WriteRegistries } from '../ooxml/writeWorkbookParts'
import { styleOf } from './originalCells'
import type { OutlineSheet } from './outlineWorkbook'
import {
  type CellTag,
  eachCell,
  firstRowAbove,
  isNumberType,
  isType,
  readInteger,
  readRow,
  rowEnd,
} from './sheetRows'

// The save of an outlined sheet: exceljs writes the rows it holds (describe's first rows and the rows the
// agent wrote to); every other row is copied from the part as read, with its style and shared-string ids
// renumbered to the ones exceljs writes (the ids a whole load and save would give the same cells).

export interface SpliceInput {
  sheet: OutlineSheet
  /** Rows past `sheet.lastLoadedRow` that exceljs holds and wrote (their copy in the part is left out). */
  written: ReadonlySet<number>
  read: ReadContext
  /** The sheet's used area (for `<dimension>`, which exceljs computed from the rows it holds). */
  area: Area | undefined
}

// exceljs's Enums.ValueType: the cell type its style registry is told (it decides whether a style
// without a number format gets General).
const NULL_TYPE = 0
const NUMBER_TYPE = 2
const STRING_TYPE = 3

/** A growing byte buffer. */
class ByteWriter {
  private buffer: Buffer
  length = 0

  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafe(capacity)
  }

  private ensure(extra: number): void {
    if (this.length + extra <= this.buffer.length) return
    const grown = Buffer.allocUnsafe(Math.max(this.length + extra, Math.ceil(this.buffer.length * 1.5)))
    this.buffer.copy(grown, 0, 0, this.length)
    this.buffer = grown
  }

  bytes(source: Uint8Array, start: number, end: number): void {
    if (end <= start) return
    this.ensure(end - start)
    this.buffer.set(source.subarray(start, end), this.length)
    this.length += end - start
  }

  text(value: string): void {
    this.ensure(value.length * 3)
    this.length += this.buffer.write(value, this.length, 'utf8')
  }

  result(): Uint8Array {
    return this.buffer.subarray(0, this.length)
  }
}

/** Renumbers one original row's style and shared-string ids while copying it. */
class RowCopier {
  private readonly styles = new Map<number, number>()
  private readonly strings = new Map<number, number>()

  constructor(
    private readonly input: SpliceInput,
    private readonly registries: WriteRegistries,
    private readonly out: ByteWriter,
  ) {}

  private styleId(id: number, cellType: number | undefined): number {
    let mapped = this.styles.get(id)
    if (mapped === undefined) {
      mapped = this.registries.styles.addStyleModel(styleOf(this.input.read, id), cellType)
      this.styles.set(id, mapped)
    }
    return mapped
  }

  private stringId(index: number): number {
    const sst = this.registries.sharedStrings
    let mapped = this.strings.get(index)
    if (mapped === undefined) {
      mapped = sst.add(this.input.read.sharedStrings.getString(index))
      this.strings.set(index, mapped)
    } else sst.model.count++
    return mapped
  }

  copy(xml: Uint8Array, start: number, end: number): void {
    const out = this.out
    let from = start
    const replace = (valueStart: number, valueEnd: number, value: number) => {
      out.bytes(xml, from, valueStart)
      out.text(String(value))
      from = valueEnd
    }
    const row = readRow(xml, start, end)
    // exceljs reads a style id of 0 as no style: such ids stay as they are.
    if (row.style !== 0) replace(row.styleStart, row.styleEnd, this.styleId(row.style, undefined))
    if (!row.empty)
      eachCell(xml, row.contentStart, end, (cell: CellTag) => {
        if (cell.style !== 0)
          replace(cell.styleStart, cell.styleEnd, this.styleId(cell.style, cellType(xml, cell)))
        if (cell.valueStart >= 0 && isType(xml, cell, 's'))
          replace(
            cell.valueStart,
            cell.valueEnd,
            this.stringId(readInteger(xml, cell.valueStart, cell.valueEnd)),
          )
      })
    out.bytes(xml, from, end)
  }
}

function cellType(xml: Uint8Array, cell: CellTag): number {
  if (cell.valueStart < 0) return NULL_TYPE
  return isNumberType(xml, cell) ? NUMBER_TYPE : STRING_TYPE
}

const SHEET_DATA = Buffer.from('<sheetData')
const SHEET_DATA_CLOSE = Buffer.from('</sheetData>')
const ROW_OPEN = Buffer.from('<row')
const DIMENSION = /<dimension ref="([^"]*)"/

/** exceljs's sheet XML split around its rows, and where each row past the loaded ones starts. */
function splitWritten(written: Buffer, lastLoadedRow: number) {
  const open = written.indexOf(SHEET_DATA)
  const openEnd = written.indexOf(0x3e, open) + 1
  const selfClosed = written[openEnd - 2] === 0x2f
  const close = selfClosed ? openEnd : written.indexOf(SHEET_DATA_CLOSE, openEnd)
  const later: { number: number; start: number }[] = []
  let headEnd = close
  for (
    let at = written.indexOf(ROW_OPEN, openEnd);
    at >= 0 && at < close;
    at = written.indexOf(ROW_OPEN, at + 1)
  ) {
    const number = readRow(written, at, close).number
    if (number <= lastLoadedRow) continue
    if (later.length === 0) headEnd = at
    later.push({ number, start: at })
  }
  return { open, openEnd, selfClosed, close, headEnd, later }
}

function unionRef(ref: string | undefined, area: Area | undefined): string | undefined {
  if (!area) return ref
  const m = ref && /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/.exec(ref)
  if (!m) return areaName(area)
  const col = (letters: string) => [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0)
  const top = Number(m[2])
  const left = col(m[1]!)
  const bottom = m[4] ? Number(m[4]) : top
  const right = m[3] ? col(m[3]) : left
  return areaName({
    top: Math.min(top, area.top),
    left: Math.min(left, area.left),
    bottom: Math.max(bottom, area.bottom),
    right: Math.max(right, area.right),
  })
}

/** The original part's root start tag (its namespace declarations). */
function originalRoot(xml: Uint8Array): string {
  const text = Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength).toString(
    'utf8',
    0,
    Math.min(xml.length, 8192),
  )
  return /<(?!\?)(?!!)[\w:.-]+\b[^>]*>/.exec(text)?.[0] ?? ''
}

/**
 * The sheet XML exceljs wrote before its rows, with `<dimension>` covering the whole sheet and the
 * namespaces the copied rows may use (`x14ac:dyDescent`...) declared as the original part declared them.
 */
function prefixFor(written: Buffer, end: number, input: SpliceInput): string {
  const prefix = written.toString('utf8', 0, end).replace(DIMENSION, (whole, ref: string) => {
    const union = unionRef(ref, input.area)
    return union ? `<dimension ref="${union}"` : whole
  })
  const declared = rootNamespaces(prefix)
  const missing = [...rootNamespaces(originalRoot(input.sheet.xml))].filter(([p]) => p && !declared.has(p))
  if (missing.length === 0) return prefix
  const declarations = missing.map(([p, uri]) => ` xmlns:${p}="${uri}"`).join('')
  return prefix.replace(/<(?!\?)(?!!)([\w:.-]+)\b/, (tag) => `${tag}${declarations}`)
}

/**
 * The worksheet XML exceljs wrote for an outlined sheet (`writtenXml`: the rows exceljs holds), with the
 * sheet's other rows copied in from the part as read, in row order.
 */
export function spliceRows(
  writtenXml: Uint8Array,
  input: SpliceInput,
  registries: WriteRegistries,
): Uint8Array {
  const written = Buffer.from(writtenXml.buffer, writtenXml.byteOffset, writtenXml.byteLength)
  const { sheet } = input
  const { rows, dataEnd } = sheet.scan
  const parts = splitWritten(written, sheet.lastLoadedRow)
  const first = firstRowAbove(rows, sheet.lastLoadedRow)
  const copied = first < rows.count ? dataEnd - rows.starts[first]! : 0
  const out = new ByteWriter(written.length + copied + 1024)
  out.text(prefixFor(written, parts.openEnd, input))
  if (parts.selfClosed) {
    // `<sheetData/>`: reopened to hold the copied rows.
    out.length -= 2
    out.text('>')
  }
  out.bytes(written, parts.openEnd, parts.headEnd)
  const copier = new RowCopier(input, registries, out)
  let next = 0
  const later = parts.later
  const writtenRowEnd = (k: number) => (k + 1 < later.length ? later[k + 1]!.start : parts.close)
  for (let i = first; i < rows.count; i++) {
    const number = rows.numbers[i]!
    let wroteThisRow = false
    while (next < later.length && later[next]!.number <= number) {
      wroteThisRow = later[next]!.number === number
      out.bytes(written, later[next]!.start, writtenRowEnd(next))
      next++
    }
    // exceljs's copy of a row wins: it holds the writes.
    if (wroteThisRow || input.written.has(number)) continue
    copier.copy(sheet.xml, rows.starts[i]!, rowEnd(rows, i, dataEnd))
  }
  for (; next < later.length; next++) out.bytes(written, later[next]!.start, writtenRowEnd(next))
  out.text('</sheetData>')
  out.bytes(written, parts.selfClosed ? parts.openEnd : parts.close + SHEET_DATA_CLOSE.length, written.length)
  return out.result()
}
