import { unzipSync } from 'fflate'
import { format, isDateFormat } from 'numfmt'
import { AppError } from '../../../shared/errors'
import type { PreviewCell, PreviewRow, SheetInfo, SheetPlaceholder } from '../../../shared/ipc'
import { readStyles, type WorkbookStyles } from './styles'
import { attributesOf, columnLetters, decodeXml, elements, firstElement, parseA1, runText } from './xml'

/** Unpacked parts of one workbook at most; a larger package is refused, not read. */
export const MAX_UNPACKED_BYTES = 400 * 1024 * 1024

type Parts = Record<string, Uint8Array>

const utf8 = new TextDecoder()

export interface SheetModel {
  info: SheetInfo
  /** Rows `from`..`from+count-1` that hold cells (empty rows are left out). */
  rows(from: number, count: number): PreviewRow[]
  /** Every cell as `A1 -> value|formula` for comparing versions. */
  fingerprint(): Map<string, string>
}

export interface WorkbookModel {
  sheets: SheetModel[]
  styles: WorkbookStyles
}

function unpack(bytes: Uint8Array): Parts {
  let total = 0
  try {
    return unzipSync(bytes, {
      filter: (file) => {
        total += file.originalSize
        if (total > MAX_UNPACKED_BYTES)
          throw new AppError(
            'TOO_LARGE',
            `The workbook unpacks to more than ${MAX_UNPACKED_BYTES / 2 ** 20} MB; it is too large to preview.`,
          )
        return /\.(xml|rels)$/i.test(file.name)
      },
    })
  } catch (error) {
    if (error instanceof AppError) throw error
    throw new AppError(
      'VALIDATION_FAILED',
      'The file is not a readable .xlsx workbook (its zip package is damaged).',
      { cause: error },
    )
  }
}

const text = (parts: Parts, name: string): string | undefined => {
  const bytes = parts[name]
  return bytes ? utf8.decode(bytes) : undefined
}

function relsOf(parts: Parts, part: string): Map<string, { target: string; type: string }> {
  const slash = part.lastIndexOf('/')
  const relsPath = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`
  const out = new Map<string, { target: string; type: string }>()
  const xml = text(parts, relsPath)
  if (!xml) return out
  const base = part.slice(0, slash + 1)
  for (const rel of elements(xml, 'Relationship')) {
    const target = rel.attrs.Target ?? ''
    if (rel.attrs.TargetMode === 'External') continue
    out.set(rel.attrs.Id ?? '', { target: resolvePart(base, target), type: rel.attrs.Type ?? '' })
  }
  return out
}

function resolvePart(base: string, target: string): string {
  const segments = (target.startsWith('/') ? target.slice(1) : base + target).split('/')
  const out: string[] = []
  for (const segment of segments) {
    if (segment === '..') out.pop()
    else if (segment !== '.' && segment !== '') out.push(segment)
  }
  return out.join('/')
}

function formatNumber(pattern: string, value: number): string {
  if (pattern === 'General' && Number.isInteger(value) && Math.abs(value) < 1e11) return String(value)
  try {
    return format(pattern, value)
  } catch {
    return format('General', value)
  }
}

const ERROR_OR_DATE = new Map<string, boolean>()
function isDate(pattern: string): boolean {
  let known = ERROR_OR_DATE.get(pattern)
  if (known === undefined) {
    try {
      known = isDateFormat(pattern)
    } catch {
      known = false
    }
    ERROR_OR_DATE.set(pattern, known)
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

function sheetModel(
  xml: string,
  name: string,
  hidden: boolean,
  strings: readonly string[],
  styles: WorkbookStyles,
  placeholders: SheetPlaceholder[],
): SheetModel {
  const dataStart = xml.search(/<(?:\w+:)?sheetData[\s>/]/)
  const dataClose = xml.search(/<\/(?:\w+:)?sheetData>/)
  const dataEnd = dataClose < 0 ? xml.length : dataClose
  const head = dataStart < 0 ? xml : xml.slice(0, dataStart)
  const tail = dataClose < 0 ? '' : xml.slice(dataClose)

  // Row index: the number and start offset of every <row>, in part order.
  let numbers = new Int32Array(1024)
  let starts = new Int32Array(1024)
  let count = 0
  let ordered = true
  if (dataStart >= 0) {
    const rowTag = /<(?:\w+:)?row(?=[\s/>])([^>]*)>/g
    rowTag.lastIndex = dataStart
    let previous = 0
    for (let match = rowTag.exec(xml); match && match.index < dataEnd; match = rowTag.exec(xml)) {
      const r = /\br="(\d+)"/.exec(match[1] ?? '')
      const number = r ? Number(r[1]) : previous + 1
      if (number <= previous) ordered = false
      previous = number
      if (count === numbers.length) {
        const grow = (a: Int32Array) => {
          const b = new Int32Array(a.length * 2)
          b.set(a)
          return b
        }
        numbers = grow(numbers)
        starts = grow(starts)
      }
      numbers[count] = number
      starts[count] = match.index
      count++
    }
  }
  let order: number[] | undefined
  if (!ordered)
    order = Array.from({ length: count }, (_, i) => i).sort((a, b) => (numbers[a] ?? 0) - (numbers[b] ?? 0))
  const at = (i: number) => order?.[i] ?? i
  const rowEnd = (index: number) => {
    // The next row in part order (not sorted order) ends this one.
    const next = index + 1 < count ? starts[index + 1] : dataEnd
    return next ?? dataEnd
  }

  const sharedFormulas = new Map<string, { formula: string; row: number; column: number }>()
  let sharedRead = false
  const readShared = () => {
    if (sharedRead) return
    sharedRead = true
    if (!xml.includes('shared')) return
    const pattern = /<(?:\w+:)?c\b([^>]*)>\s*<(?:\w+:)?f\b([^>]*)>([^<]*)<\/(?:\w+:)?f>/g
    pattern.lastIndex = Math.max(0, dataStart)
    for (let m = pattern.exec(xml); m && m.index < dataEnd; m = pattern.exec(xml)) {
      const f = attributesOf(m[2] ?? '')
      if (f.t !== 'shared' || f.si === undefined || !f.ref) continue
      const anchor = parseA1(attributesOf(m[1] ?? '').r ?? '')
      if (anchor) sharedFormulas.set(f.si, { formula: decodeXml(m[3] ?? ''), ...anchor })
    }
  }

  const parseRow = (index: number): PreviewRow => {
    const start = starts[index] ?? 0
    const end = rowEnd(index)
    const chunk = xml.slice(start, end)
    const tagEnd = chunk.indexOf('>')
    const rowAttrs = attributesOf(chunk.slice(0, tagEnd))
    const r = numbers[index] ?? 1
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
            readShared()
            const master = sharedFormulas.get(fElement.attrs.si)
            if (master) cell.f = shiftFormula(master.formula, r - master.row, column - master.column)
          }
        }
        const v = inner ? firstElement(inner, 'v') : undefined
        const raw = v ? decodeXml(v.inner) : undefined
        switch (attrs.t) {
          case 's':
            cell.t = strings[Number(raw)] ?? ''
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
    if (rowAttrs.customHeight === '1' && rowAttrs.ht) row.h = Number(rowAttrs.ht)
    return row
  }

  // The first row at or after `from` in sorted order.
  const firstAtOrAfter = (from: number) => {
    let low = 0
    let high = count
    while (low < high) {
      const mid = (low + high) >> 1
      if ((numbers[at(mid)] ?? 0) < from) low = mid + 1
      else high = mid
    }
    return low
  }

  const lastRow = count ? (numbers[at(count - 1)] ?? 0) : 0
  let columns = 0
  const dimension = firstElement(head, 'dimension')?.attrs.ref
  const dimensionEnd = dimension ? parseA1(dimension.split(':').pop() ?? '') : undefined
  if (dimensionEnd && dimensionEnd.row >= lastRow) columns = dimensionEnd.column
  else
    for (let i = 0; i < Math.min(count, 500); i++)
      for (const cell of parseRow(at(i)).cells) columns = Math.max(columns, cell.c)

  const pane = firstElement(head, 'pane')?.attrs
  const frozen =
    pane && (pane.state === 'frozen' || pane.state === 'frozenSplit')
      ? {
          rows: Math.max(0, Math.floor(Number(pane.ySplit ?? 0))),
          columns: Math.max(0, Math.floor(Number(pane.xSplit ?? 0))),
        }
      : { rows: 0, columns: 0 }

  const format = firstElement(head, 'sheetFormatPr')?.attrs
  const defaultWidth =
    Number(format?.defaultColWidth ?? (format?.baseColWidth ? Number(format.baseColWidth) + 0.71 : 8.43)) ||
    8.43
  const widths: number[] = []
  for (const col of elements(firstElement(head, 'cols')?.inner ?? '', 'col')) {
    const min = Number(col.attrs.min ?? 0)
    const max = Math.min(Number(col.attrs.max ?? min), Math.max(columns, min), 16_384)
    const width = col.attrs.hidden === '1' ? 0 : Number(col.attrs.width ?? defaultWidth)
    for (let c = min; c <= max && c <= 1000; c++)
      widths[c - 1] = Number.isFinite(width) ? width : defaultWidth
  }
  for (let i = 0; i < widths.length; i++) if (widths[i] === undefined) widths[i] = defaultWidth

  const merges = [...elements(firstElement(tail, 'mergeCells')?.inner ?? '', 'mergeCell')]
    .map((m) => m.attrs.ref ?? '')
    .filter((ref) => /^[A-Z]+\d+:[A-Z]+\d+$/.test(ref))
    .slice(0, 10_000)

  return {
    info: {
      name,
      rows: lastRow,
      columns: Math.min(columns, 16_384),
      frozen,
      widths,
      defaultWidth,
      merges,
      placeholders,
      hidden,
    },
    rows(from, wanted) {
      const out: PreviewRow[] = []
      const last = from + wanted - 1
      for (let i = firstAtOrAfter(from); i < count; i++) {
        const index = at(i)
        if ((numbers[index] ?? 0) > last) break
        const row = parseRow(index)
        if (row.cells.length || row.h) out.push(row)
      }
      return out
    },
    fingerprint() {
      const cells = new Map<string, string>()
      for (let i = 0; i < count; i++) {
        const row = parseRow(at(i))
        for (const cell of row.cells) {
          if (cell.t === '' && cell.f === undefined) continue
          cells.set(`${columnLetters(cell.c)}${row.r}`, `${cell.f ?? ''}\u0000${cell.t}`)
        }
      }
      return cells
    },
  }
}

function anchorOf(anchor: string): string {
  const from = firstElement(anchor, 'from')
  const col = Number(firstElement(from?.inner ?? '', 'col')?.inner ?? 0)
  const row = Number(firstElement(from?.inner ?? '', 'row')?.inner ?? 0)
  return `${columnLetters(col + 1)}${row + 1}`
}

function placeholdersOf(parts: Parts, sheetPart: string): SheetPlaceholder[] {
  const out: SheetPlaceholder[] = []
  for (const rel of relsOf(parts, sheetPart).values()) {
    if (rel.type.endsWith('/pivotTable')) {
      const xml = text(parts, rel.target) ?? ''
      const definition = firstElement(xml, 'pivotTableDefinition')?.attrs
      const location = firstElement(xml, 'location')?.attrs.ref ?? 'A1'
      out.push({
        kind: 'pivot',
        title: definition?.name ?? 'Pivot table',
        anchor: location.split(':')[0] ?? 'A1',
      })
    } else if (rel.type.endsWith('/drawing')) {
      const xml = text(parts, rel.target) ?? ''
      const drawingRels = relsOf(parts, rel.target)
      for (const kind of ['twoCellAnchor', 'oneCellAnchor', 'absoluteAnchor']) {
        for (const anchor of elements(xml, kind)) {
          const cell = anchorOf(anchor.inner)
          const chart = /<(?:\w+:)?chart\b[^>]*\br:id="([^"]+)"/.exec(anchor.inner)
          if (chart?.[1]) {
            const chartXml = text(parts, drawingRels.get(chart[1])?.target ?? '') ?? ''
            const title = firstElement(chartXml, 'title')
            out.push({ kind: 'chart', title: (title && runText(title.inner)) || 'Chart', anchor: cell })
          } else if (firstElement(anchor.inner, 'pic')) {
            const name = firstElement(anchor.inner, 'cNvPr')?.attrs.name
            out.push({ kind: 'image', title: name || 'Picture', anchor: cell })
          }
        }
      }
    }
  }
  return out
}

/** Reads a workbook's package for the preview: sheets, styles, and rows parsed only when asked for. */
export function readWorkbook(bytes: Uint8Array): WorkbookModel {
  const parts = unpack(bytes)
  const workbookPart =
    Object.keys(parts).find((name) => /^xl\/workbook\d*\.xml$/i.test(name)) ??
    Object.keys(parts).find((name) => /workbook\.xml$/i.test(name))
  const workbookXml = workbookPart ? text(parts, workbookPart) : undefined
  if (!workbookPart || !workbookXml)
    throw new AppError(
      'VALIDATION_FAILED',
      'The file is not a readable .xlsx workbook (it has no workbook part).',
    )
  const rels = relsOf(parts, workbookPart)
  let stylesPart: string | undefined
  let stringsPart: string | undefined
  for (const rel of rels.values()) {
    if (rel.type.endsWith('/styles')) stylesPart = rel.target
    if (rel.type.endsWith('/sharedStrings')) stringsPart = rel.target
  }
  const styles = readStyles(stylesPart ? text(parts, stylesPart) : undefined)
  const strings: string[] = []
  const stringsXml = stringsPart ? text(parts, stringsPart) : undefined
  if (stringsXml) for (const si of elements(stringsXml, 'si')) strings.push(runText(si.inner))

  const sheets: SheetModel[] = []
  for (const sheet of elements(firstElement(workbookXml, 'sheets')?.inner ?? '', 'sheet')) {
    const target = rels.get(sheet.attrs['r:id'] ?? sheet.attrs.id ?? '')
    if (!target?.type.endsWith('/worksheet')) continue
    const xml = text(parts, target.target)
    if (xml === undefined) continue
    const hidden = sheet.attrs.state === 'hidden' || sheet.attrs.state === 'veryHidden'
    sheets.push(
      sheetModel(
        xml,
        sheet.attrs.name ?? `Sheet${sheets.length + 1}`,
        hidden,
        strings,
        styles,
        placeholdersOf(parts, target.target),
      ),
    )
  }
  if (sheets.length === 0) throw new AppError('VALIDATION_FAILED', 'The workbook has no worksheet to show.')
  return { sheets, styles }
}

/** The cells whose value or formula differ between two workbooks, per sheet (sheet order of `next`). */
export function compareWorkbooks(
  next: WorkbookModel,
  previous: WorkbookModel,
  limit: number,
): { sheets: { sheet: string; cells: string[] }[]; truncated: boolean } {
  let left = limit
  let truncated = false
  const out: { sheet: string; cells: string[] }[] = []
  for (const sheet of next.sheets) {
    const before = previous.sheets.find((s) => s.info.name === sheet.info.name)?.fingerprint() ?? new Map()
    const after = sheet.fingerprint()
    const cells: string[] = []
    for (const [ref, value] of after) if (before.get(ref) !== value) cells.push(ref)
    for (const ref of before.keys()) if (!after.has(ref)) cells.push(ref)
    if (cells.length > left) {
      truncated = true
      cells.length = left
    }
    left -= cells.length
    if (cells.length) out.push({ sheet: sheet.info.name, cells })
  }
  return { sheets: out, truncated }
}
