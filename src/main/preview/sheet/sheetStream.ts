import { format, isDateFormat } from 'numfmt'
import type { PreviewCell, PreviewRow, SheetInfo, SheetPlaceholder } from '../../../shared/ipc'
import type { WorkbookStyles } from './styles'
import { attributesOf, columnLetters, decodeXml, elements, firstElement, parseA1, runText } from './xml'
import type { PartStream } from './zipPackage'

// One worksheet read as a stream: its part is inflated a piece at a time and cut into rows as the text
// arrives, so the first page of rows needs the first few kilobytes of the part, not the whole sheet.
// Rows are kept as their XML and parsed into cells only when a page asks for them.

/** A sheet part up to this size is read whole when the workbook is opened (exact rows and merges at once). */
export const READ_WHOLE_BYTES = 2 * 1024 * 1024
/** Rows read ahead when the workbook is opened, so the first page answers without inflating more. */
export const FIRST_ROWS = 200
/** Rows whose cells are looked at for the column count when the sheet has no dimension. */
const COLUMN_SAMPLE = 500
/** Main-thread time one uninterrupted read may take before it lets other requests in. */
const SLICE_MS = 12

/** The shared strings table, each string parsed the first time a cell points at it. */
export interface SharedStrings {
  get(index: number): string | undefined
}

export function sharedStrings(xml: string | undefined): SharedStrings {
  if (!xml) return { get: () => undefined }
  const starts: number[] = []
  const si = /<(?:\w+:)?si(?=[\s>/])/g
  for (let m = si.exec(xml); m; m = si.exec(xml)) starts.push(m.index)
  const parsed = new Map<number, string>()
  return {
    get(index) {
      const start = starts[index]
      if (start === undefined) return undefined
      let text = parsed.get(index)
      if (text === undefined) {
        const element = firstElement(xml.slice(start, starts[index + 1] ?? xml.length), 'si')
        text = element ? runText(element.inner) : ''
        parsed.set(index, text)
      }
      return text
    },
  }
}

function formatNumber(pattern: string, value: number): string {
  if (pattern === 'General' && Number.isInteger(value) && Math.abs(value) < 1e11) return String(value)
  try {
    return format(pattern, value)
  } catch {
    return format('General', value)
  }
}

const DATE_FORMATS = new Map<string, boolean>()
function isDate(pattern: string): boolean {
  let known = DATE_FORMATS.get(pattern)
  if (known === undefined) {
    try {
      known = isDateFormat(pattern)
    } catch {
      known = false
    }
    DATE_FORMATS.set(pattern, known)
  }
  return known
}

/** Shifts the relative references of a shared formula from its anchor to another cell. */
function shiftFormula(formula: string, rows: number, columns: number): string {
  if (rows === 0 && columns === 0) return formula
  return formula
    .split(/("(?:[^"]|"")*")/)
    .map((piece, i) =>
      i % 2 === 1
        ? piece
        : piece.replace(
            /(^|[^A-Za-z0-9_.!'])(\$?)([A-Z]{1,3})(\$?)(\d{1,7})(?![A-Za-z0-9_(])/g,
            (whole, lead: string, colAbs: string, col: string, rowAbs: string, row: string) => {
              const at = parseA1(`${col}${row}`)
              if (!at) return whole
              const c = colAbs ? at.column : at.column + columns
              const r = rowAbs ? at.row : at.row + rows
              if (c < 1 || r < 1) return whole
              return `${lead}${colAbs}${columnLetters(c)}${rowAbs}${r}`
            },
          ),
    )
    .join('')
}

export interface SheetModel {
  /** What is known of the sheet: `rows` is exact once `rowsExact`, an estimate before. */
  readonly info: SheetInfo
  /** Rows `from`..`from+count-1` that hold cells (empty rows are left out); reads only as far as needed. */
  rows(from: number, count: number): Promise<PreviewRow[]>
  /** Reads the sheet to its end: its exact row count and its merged cells. */
  complete(): Promise<{ rows: number; merges: string[] }>
  /** Every cell as `A1 -> value|formula` for comparing versions. */
  fingerprint(): Promise<Map<string, string>>
  /** How much of the part has been read, for tests and benches. */
  readonly progress: {
    compressedRead: number
    inflated: number
    size: number
    rowsCut: number
    rowsParsed: number
  }
}

const ROW_OR_END = /<(?:\w+:)?(row|\/sheetData)(?=[\s/>])/g
const ROW_CLOSE = /<\/(?:\w+:)?row\s*>/g
const SHEET_DATA = /<(?:\w+:)?sheetData(?=[\s/>])[^>]*?(\/?)>/

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

export async function openSheet(options: {
  part: PartStream
  name: string
  hidden: boolean
  strings: SharedStrings
  styles: WorkbookStyles
  placeholders: SheetPlaceholder[]
}): Promise<SheetModel> {
  const { part, strings, styles } = options
  const decoder = new TextDecoder()
  let state: 'head' | 'rows' | 'tail' | 'done' = 'head'
  let buffer = ''
  let head = ''
  let tail = ''
  const rowXml: string[] = []
  const rowNumbers: number[] = []
  let ordered = true
  let rowsParsed = 0
  const sharedFormulas = new Map<string, { formula: string; row: number; column: number }>()

  const noteSharedFormulas = (xml: string) => {
    const pattern = /<(?:\w+:)?c\b([^>]*)>\s*<(?:\w+:)?f\b([^>]*)>([^<]*)<\/(?:\w+:)?f>/g
    for (let m = pattern.exec(xml); m; m = pattern.exec(xml)) {
      const f = attributesOf(m[2] ?? '')
      if (f.t !== 'shared' || f.si === undefined || !f.ref) continue
      const anchor = parseA1(attributesOf(m[1] ?? '').r ?? '')
      if (anchor && !sharedFormulas.has(f.si))
        sharedFormulas.set(f.si, { formula: decodeXml(m[3] ?? ''), ...anchor })
    }
  }

  const cutRows = () => {
    ROW_OR_END.lastIndex = 0
    let consumed = 0
    for (let m = ROW_OR_END.exec(buffer); m; m = ROW_OR_END.exec(buffer)) {
      if (m[1] === '/sheetData') {
        tail = buffer.slice(m.index)
        buffer = ''
        state = 'tail'
        return
      }
      const tagEnd = buffer.indexOf('>', m.index)
      if (tagEnd < 0) break
      let end: number
      if (buffer[tagEnd - 1] === '/') end = tagEnd + 1
      else {
        ROW_CLOSE.lastIndex = tagEnd
        const close = ROW_CLOSE.exec(buffer)
        if (!close) break
        end = ROW_CLOSE.lastIndex
      }
      const xml = buffer.slice(m.index, end)
      const r = /\br="(\d+)"/.exec(buffer.slice(m.index, tagEnd))
      const previous = rowNumbers[rowNumbers.length - 1] ?? 0
      const number = r ? Number(r[1]) : previous + 1
      if (number <= previous) ordered = false
      rowNumbers.push(number)
      rowXml.push(xml)
      if (xml.includes('shared')) noteSharedFormulas(xml)
      consumed = end
      ROW_OR_END.lastIndex = end
    }
    if (consumed) buffer = buffer.slice(consumed)
  }

  // A function, not a test of `state` inline: the reads in between change it behind the type checker's back.
  const done = () => state === 'done'

  /** Reads one more piece of the part; false once it is all read. */
  const pull = (): boolean => {
    if (state === 'done') return false
    const bytes = part.next()
    const piece = bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode()
    if (state === 'tail') tail += piece
    else buffer += piece
    if (state === 'head') {
      const data = SHEET_DATA.exec(buffer)
      if (data) {
        head = buffer.slice(0, data.index)
        if (data[1] === '/') {
          tail = buffer.slice(data.index)
          buffer = ''
          state = 'tail'
        } else {
          buffer = buffer.slice(data.index + data[0].length)
          state = 'rows'
        }
      }
    }
    if (state === 'rows') cutRows()
    if (!bytes) {
      if (state === 'head') head = buffer
      buffer = ''
      state = 'done'
      return false
    }
    return true
  }

  /** Reads until `enough()` holds or the part ends, letting other requests in every few milliseconds. */
  const readUntil = async (enough: () => boolean) => {
    let slice = performance.now()
    while (state !== 'done' && !enough()) {
      pull()
      if (performance.now() - slice > SLICE_MS) {
        await nextTurn()
        slice = performance.now()
      }
    }
  }

  // Rows are cut in part order; when the part lists them out of order, a page needs the whole part.
  const lastCut = () => rowNumbers[rowNumbers.length - 1] ?? 0
  const readThrough = (row: number) => readUntil(() => ordered && lastCut() > row)

  let sortedOrder: number[] | undefined
  const sorted = () => {
    if (ordered) return undefined
    if (!sortedOrder || sortedOrder.length !== rowNumbers.length)
      sortedOrder = Array.from({ length: rowNumbers.length }, (_, i) => i).sort(
        (a, b) => (rowNumbers[a] ?? 0) - (rowNumbers[b] ?? 0),
      )
    return sortedOrder
  }

  const parseRow = (index: number): PreviewRow => {
    rowsParsed++
    const chunk = rowXml[index] ?? ''
    const tagEnd = chunk.indexOf('>')
    const rowAttrs = attributesOf(chunk.slice(0, tagEnd))
    const r = rowNumbers[index] ?? 1
    const cells: PreviewCell[] = []
    if (!chunk.slice(0, tagEnd + 1).endsWith('/>')) {
      const cellTag = /<(?:\w+:)?c(?=[\s/>])([^>]*?)(\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g
      let column = 0
      for (let m = cellTag.exec(chunk); m; m = cellTag.exec(chunk)) {
        const attrs = attributesOf(m[1] ?? '')
        const ref = attrs.r ? parseA1(attrs.r) : undefined
        column = ref ? ref.column : column + 1
        const inner = m[3] ?? ''
        const s = attrs.s === undefined ? 0 : Number(attrs.s)
        const cell: PreviewCell = { c: column, t: '' }
        if (s > 0 && s < styles.styles.length) cell.s = s
        const fElement = inner ? firstElement(inner, 'f') : undefined
        if (fElement) {
          if (fElement.inner) cell.f = decodeXml(fElement.inner)
          else if (fElement.attrs.t === 'shared' && fElement.attrs.si !== undefined) {
            const master = sharedFormulas.get(fElement.attrs.si)
            if (master) cell.f = shiftFormula(master.formula, r - master.row, column - master.column)
          }
        }
        const v = inner ? firstElement(inner, 'v') : undefined
        const raw = v ? decodeXml(v.inner) : undefined
        switch (attrs.t) {
          case 's':
            cell.t = strings.get(Number(raw)) ?? ''
            cell.k = 's'
            break
          case 'str':
            cell.t = raw ?? ''
            cell.k = 's'
            break
          case 'inlineStr': {
            const is = firstElement(inner, 'is')
            cell.t = is ? runText(is.inner) : (raw ?? '')
            cell.k = 's'
            break
          }
          case 'b':
            cell.t = raw === '1' || raw === 'true' ? 'TRUE' : 'FALSE'
            cell.k = 'b'
            break
          case 'e':
            cell.t = raw ?? '#N/A'
            cell.k = 'e'
            break
          case 'd':
            cell.t = raw ?? ''
            cell.k = 'd'
            break
          default:
            if (raw !== undefined && raw !== '') {
              const value = Number(raw)
              const pattern = styles.formats[s] ?? 'General'
              cell.t = Number.isFinite(value) ? formatNumber(pattern, value) : raw
              cell.k = isDate(pattern) ? 'd' : 'n'
            }
        }
        if (cell.t === '' && cell.f === undefined && cell.s === undefined) continue
        cells.push(cell)
      }
    }
    const row: PreviewRow = { r, cells }
    if (rowAttrs.customHeight === '1' || rowAttrs.customHeight === 'true') {
      const height = Number(rowAttrs.ht)
      if (Number.isFinite(height) && height > 0) row.h = Math.min(height, 409)
    }
    return row
  }

  /** Indices (in part order) of the rows numbered `from`..`last`, in row order. */
  const indicesBetween = (from: number, last: number): number[] => {
    const order = sorted()
    const numberAt = (i: number) => rowNumbers[order ? (order[i] ?? 0) : i] ?? 0
    let low = 0
    let high = rowNumbers.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (numberAt(mid) < from) low = mid + 1
      else high = mid
    }
    const out: number[] = []
    for (let i = low; i < rowNumbers.length && numberAt(i) <= last; i++) out.push(order ? (order[i] ?? 0) : i)
    return out
  }

  // Opening: the head (dimension, panes, widths), then the first rows, or everything for a small part.
  await readUntil(() => state !== 'head')
  if (part.size <= READ_WHOLE_BYTES) await readUntil(() => false)
  else await readThrough(FIRST_ROWS)

  const dimension = firstElement(head, 'dimension')?.attrs.ref
  const dimensionEnd = dimension ? parseA1(dimension.split(':').pop() ?? '') : undefined
  let columns = dimensionEnd?.column ?? 0
  if (!dimensionEnd) {
    await readThrough(COLUMN_SAMPLE)
    for (const index of indicesBetween(1, COLUMN_SAMPLE))
      for (const cell of parseRow(index).cells) columns = Math.max(columns, cell.c)
  }

  const pane = firstElement(head, 'pane')?.attrs
  const frozen =
    pane && (pane.state === 'frozen' || pane.state === 'frozenSplit')
      ? {
          rows: Math.max(0, Math.floor(Number(pane.ySplit ?? 0))),
          columns: Math.max(0, Math.floor(Number(pane.xSplit ?? 0))),
        }
      : { rows: 0, columns: 0 }

  const sheetFormat = firstElement(head, 'sheetFormatPr')?.attrs
  const defaultWidth =
    Number(
      sheetFormat?.defaultColWidth ??
        (sheetFormat?.baseColWidth ? Number(sheetFormat.baseColWidth) + 0.71 : 8.43),
    ) || 8.43
  const defaultHeight = Number(sheetFormat?.defaultRowHeight)
  const widths: number[] = []
  for (const col of elements(firstElement(head, 'cols')?.inner ?? '', 'col')) {
    const min = Number(col.attrs.min ?? 0)
    const max = Math.min(Number(col.attrs.max ?? min), Math.max(columns, min), 16_384)
    const width =
      col.attrs.hidden === '1' || col.attrs.hidden === 'true' ? 0 : Number(col.attrs.width ?? defaultWidth)
    for (let c = min; c <= max && c <= 1000; c++)
      widths[c - 1] = Number.isFinite(width) ? width : defaultWidth
  }
  for (let i = 0; i < widths.length; i++) if (widths[i] === undefined) widths[i] = defaultWidth

  const mergesOf = () =>
    [...elements(firstElement(tail, 'mergeCells')?.inner ?? '', 'mergeCell')]
      .map((m) => m.attrs.ref ?? '')
      .filter((ref) => /^[A-Z]+\d+:[A-Z]+\d+$/.test(ref))
      .slice(0, 10_000)

  const lastRow = () => {
    const order = sorted()
    return order ? (rowNumbers[order[order.length - 1] ?? 0] ?? 0) : lastCut()
  }
  /** Rows the sheet has: exact once read to the end, else its dimension or a guess from the bytes read. */
  const estimate = () => {
    if (state === 'done') return lastRow()
    if (dimensionEnd && dimensionEnd.row >= lastRow()) return dimensionEnd.row
    return Math.max(lastRow(), Math.round((lastRow() * part.size) / Math.max(1, part.inflated)))
  }

  const info: SheetInfo = {
    name: options.name,
    rows: estimate(),
    columns: Math.min(columns, 16_384),
    frozen,
    widths,
    defaultWidth,
    merges: done() ? mergesOf() : [],
    placeholders: options.placeholders,
    hidden: options.hidden,
  }
  if (!done()) info.rowsExact = false
  if (Number.isFinite(defaultHeight) && defaultHeight > 0 && sheetFormat?.customHeight === '1')
    info.defaultHeight = defaultHeight

  let completing: Promise<{ rows: number; merges: string[] }> | undefined
  const complete = () => {
    completing ??= readUntil(() => false).then(() => {
      info.rows = lastRow()
      info.merges = mergesOf()
      delete info.rowsExact
      return { rows: info.rows, merges: info.merges }
    })
    return completing
  }

  return {
    info,
    get progress() {
      return {
        compressedRead: part.compressedRead,
        inflated: part.inflated,
        size: part.size,
        rowsCut: rowXml.length,
        rowsParsed,
      }
    },
    async rows(from, count) {
      const last = from + count - 1
      await readThrough(last)
      if (state === 'done') await complete()
      else info.rows = estimate()
      const out: PreviewRow[] = []
      for (const index of indicesBetween(from, last)) {
        const row = parseRow(index)
        if (row.cells.length || row.h) out.push(row)
      }
      return out
    },
    complete,
    async fingerprint() {
      await complete()
      const cells = new Map<string, string>()
      for (let i = 0; i < rowXml.length; i++) {
        const row = parseRow(i)
        for (const cell of row.cells) {
          if (cell.t === '' && cell.f === undefined) continue
          cells.set(`${columnLetters(cell.c)}${row.r}`, `${cell.f ?? ''}\u0000${cell.t}`)
        }
      }
      return cells
    },
  }
}
