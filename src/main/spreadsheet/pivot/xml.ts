import { type Area, areaName } from '../cells/address'
import { ByteWriter } from '../ooxml/byteWriter'
import { escapeXml } from '../ooxml/packageParts'
import type { PivotColumn, PivotResult, PivotSource, PivotValue, Summary } from './model'

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

const SUBTOTAL: Record<Summary, string> = {
  sum: 'sum',
  count: 'count',
  average: 'average',
  min: 'min',
  max: 'max',
  count_numbers: 'countNums',
  product: 'product',
}

export const SUMMARY_OF: Record<string, Summary> = Object.fromEntries(
  Object.entries(SUBTOTAL).map(([k, v]) => [v, k as Summary]),
)

/** Excel's built-in number formats a data field can name without styles.xml. */
export const BUILTIN_FORMATS: Record<string, number> = {
  General: 0,
  '0': 1,
  '0.00': 2,
  '#,##0': 3,
  '#,##0.00': 4,
  '0%': 9,
  '0.00%': 10,
  '0.00E+00': 11,
  'mm-dd-yy': 14,
}

function isoDate(serial: number): string {
  return new Date(Math.round((serial - 25_569) * 86_400_000)).toISOString().slice(0, 19)
}

function num(n: number): string {
  return Number.isFinite(n) ? String(n) : '0'
}

function itemXml(v: PivotValue): string {
  switch (v.k) {
    case 'm':
      return '<m/>'
    case 'n':
      return `<n v="${num(v.v)}"/>`
    case 's':
      return `<s v="${escapeXml(v.v)}"/>`
    case 'b':
      return `<b v="${v.v ? 1 : 0}"/>`
    case 'd':
      return `<d v="${isoDate(v.v)}"/>`
    default:
      return `<e v="${escapeXml(v.v)}"/>`
  }
}

/** The sharedItems flags Excel expects for the values a field holds. */
function sharedItemsAttributes(column: PivotColumn): string {
  let blank = false
  let text = false
  let number = false
  let date = false
  let bool = false
  let error = false
  let integer = true
  let long = false
  let min = Number.POSITIVE_INFINITY
  let max = Number.NEGATIVE_INFINITY
  let minDate = Number.POSITIVE_INFINITY
  let maxDate = Number.NEGATIVE_INFINITY
  for (let i = 0; i < column.length; i++) {
    const v = column.at(i)
    switch (v.k) {
      case 'm':
        blank = true
        break
      case 's':
        text = true
        if (v.v.length > 255) long = true
        break
      case 'n':
        number = true
        if (!Number.isInteger(v.v)) integer = false
        if (v.v < min) min = v.v
        if (v.v > max) max = v.v
        break
      case 'd':
        date = true
        if (v.v < minDate) minDate = v.v
        if (v.v > maxDate) maxDate = v.v
        break
      case 'b':
        bool = true
        break
      default:
        error = true
    }
  }
  const kinds = [text, number, date, bool, error].filter(Boolean).length
  const a: string[] = []
  if (!(text || blank || bool || error)) a.push('containsSemiMixedTypes="0"')
  if (date && !(text || number || bool || error)) a.push('containsNonDate="0"')
  if (date) a.push('containsDate="1"')
  if (!text) a.push('containsString="0"')
  if (blank) a.push('containsBlank="1"')
  if (kinds > 1) a.push('containsMixedTypes="1"')
  if (number) {
    a.push('containsNumber="1"')
    if (integer) a.push('containsInteger="1"')
    a.push(`minValue="${num(min)}" maxValue="${num(max)}"`)
  }
  if (date) a.push(`minDate="${isoDate(minDate)}" maxDate="${isoDate(maxDate)}"`)
  if (long) a.push('longText="1"')
  return a.length > 0 ? ` ${a.join(' ')}` : ''
}

export function cacheDefinitionXml(source: PivotSource, pivot: PivotResult, recordsRelId: string): string {
  const fields = source.fields.map((name, f) => {
    const column = source.columns[f]!
    const items = pivot.fieldItems.get(f)
    const attrs = sharedItemsAttributes(column)
    const shared = items
      ? `<sharedItems${attrs} count="${items.items.length}">${items.items.map(itemXml).join('')}</sharedItems>`
      : `<sharedItems${attrs}/>`
    return `<cacheField name="${escapeXml(name)}" numFmtId="0">${shared}</cacheField>`
  })
  return `${HEAD}<pivotCacheDefinition xmlns="${MAIN}" xmlns:r="${REL}" r:id="${recordsRelId}" refreshOnLoad="1" createdVersion="6" refreshedVersion="6" minRefreshableVersion="3" recordCount="${source.records}"><cacheSource type="worksheet"><worksheetSource ref="${areaName(source.area)}" sheet="${escapeXml(source.sheet)}"/></cacheSource><cacheFields count="${fields.length}">${fields.join('')}</cacheFields></pivotCacheDefinition>`
}

/** The records part: one `<r>` per source row; axis fields by shared item index, others inline. */
export function cacheRecordsBytes(source: PivotSource, pivot: PivotResult): Uint8Array {
  const out = new ByteWriter()
  out.write(`${HEAD}<pivotCacheRecords xmlns="${MAIN}" xmlns:r="${REL}" count="${source.records}">`)
  const lists = source.columns.map((_, f) => pivot.fieldItems.get(f)?.ofRecord)
  const fields = source.columns.length
  for (let i = 0; i < source.records; i++) {
    out.write('<r>')
    for (let f = 0; f < fields; f++) {
      const list = lists[f]
      out.write(list ? `<x v="${list[i]}"/>` : itemXml(source.columns[f]!.at(i)))
    }
    out.write('</r>')
  }
  out.write('</pivotCacheRecords>')
  return out.bytes()
}

function itemsXml(pivot: PivotResult, f: number): string {
  const items = pivot.fieldItems.get(f)!
  return `<items count="${items.items.length}">${items.items.map((_, i) => `<item${items.hidden[i] ? ' h="1"' : ''} x="${i}"/>`).join('')}</items>`
}

/** `<i>` lines of an axis: each names the members after those it shares with the line before. */
function axisItems(tuples: number[][], data: number): string[] {
  const out: string[] = []
  tuples.forEach((tuple, n) => {
    const prev = tuples[n - 1]
    let same = 0
    if (prev) while (same < tuple.length && prev[same] === tuple[same]) same++
    if (same === tuple.length) same = tuple.length - 1
    const members = tuple
      .slice(same)
      .map((x) => (x === 0 ? '<x/>' : `<x v="${x}"/>`))
      .join('')
    out.push(`<i${same > 0 ? ` r="${same}"` : ''}${data > 0 ? ` i="${data}"` : ''}>${members}</i>`)
  })
  return out
}

export interface TableXmlOptions {
  cacheId: number
  /** Where the table (not its page filters) sits on its sheet. */
  location: Area
  numFmtId: (format: string | undefined) => number | undefined
}

export function pivotTableXml(source: PivotSource, pivot: PivotResult, options: TableXmlOptions): string {
  const { spec } = pivot
  const v = spec.values.length
  const dataFields = new Set(spec.values.map((x) => x.field))
  const pages = spec.filters.filter((f) => !spec.rows.includes(f.field) && !spec.columns.includes(f.field))
  const pivotFields = source.fields.map((_, f) => {
    const data = dataFields.has(f) ? ' dataField="1"' : ''
    const common = 'compact="0" outline="0" showAll="0"'
    if (spec.rows.includes(f))
      return `<pivotField axis="axisRow"${data} ${common} defaultSubtotal="0">${itemsXml(pivot, f)}</pivotField>`
    if (spec.columns.includes(f))
      return `<pivotField axis="axisCol"${data} ${common} defaultSubtotal="0">${itemsXml(pivot, f)}</pivotField>`
    if (pages.some((p) => p.field === f)) {
      const items = pivot.fieldItems.get(f)!
      const multiple = items.hidden.filter((h) => !h).length > 1 ? ' multipleItemSelectionAllowed="1"' : ''
      return `<pivotField axis="axisPage"${data} ${common}${multiple} defaultSubtotal="0">${itemsXml(pivot, f)}</pivotField>`
    }
    return `<pivotField${data} ${common}/>`
  })
  const rowItems = [...axisItems(pivot.rowTuples, 0), '<i t="grand"><x/></i>']
  const colFields = [...spec.columns.map((f) => `<field x="${f}"/>`), ...(v > 1 ? ['<field x="-2"/>'] : [])]
  const colItems: string[] = []
  if (spec.columns.length === 0) {
    for (let k = 0; k < v; k++)
      colItems.push(
        v === 1 ? '<i/>' : `<i${k > 0 ? ` i="${k}"` : ''}>${k === 0 ? '<x/>' : `<x v="${k}"/>`}</i>`,
      )
  } else {
    const withData = pivot.colTuples.flatMap((tuple) =>
      spec.values.map((_, k) => (v > 1 ? [...tuple, k] : tuple)),
    )
    const lines = axisItems(withData, 0)
    colItems.push(
      ...lines.map((line, n) => {
        const k = v > 1 ? n % v : 0
        return k > 0 ? line.replace(/^<i/, `<i i="${k}"`) : line
      }),
    )
    for (let k = 0; k < v; k++) colItems.push(`<i t="grand"${k > 0 ? ` i="${k}"` : ''}><x/></i>`)
  }
  const dataXml = spec.values.map((x) => {
    const id = options.numFmtId(x.numberFormat)
    const subtotal = x.summary === 'sum' ? '' : ` subtotal="${SUBTOTAL[x.summary]}"`
    return `<dataField name="${escapeXml(x.name)}" fld="${x.field}"${subtotal} baseField="0" baseItem="0"${id !== undefined && id > 0 ? ` numFmtId="${id}"` : ''}/>`
  })
  const pageXml = pages.map((p) => {
    const items = pivot.fieldItems.get(p.field)!
    const shown = items.hidden.flatMap((h, i) => (h ? [] : [i]))
    return `<pageField fld="${p.field}"${shown.length === 1 ? ` item="${shown[0]}"` : ''} hier="-1"/>`
  })
  const loc = options.location
  const location = `<location ref="${areaName(loc)}" firstHeaderRow="1" firstDataRow="${pivot.headerRows}" firstDataCol="${spec.rows.length}"${pages.length > 0 ? ` rowPageCount="${pages.length}" colPageCount="1"` : ''}/>`
  return `${HEAD}<pivotTableDefinition xmlns="${MAIN}" name="${escapeXml(spec.name)}" cacheId="${options.cacheId}" applyNumberFormats="0" applyBorderFormats="0" applyFontFormats="0" applyPatternFormats="0" applyAlignmentFormats="0" applyWidthHeightFormats="1" dataCaption="Values" updatedVersion="6" minRefreshableVersion="3" useAutoFormatting="1" itemPrintTitles="1" createdVersion="6" indent="0" compact="0" compactData="0" multipleFieldFilters="0">${location}<pivotFields count="${pivotFields.length}">${pivotFields.join('')}</pivotFields><rowFields count="${spec.rows.length}">${spec.rows.map((f) => `<field x="${f}"/>`).join('')}</rowFields><rowItems count="${rowItems.length}">${rowItems.join('')}</rowItems>${colFields.length > 0 ? `<colFields count="${colFields.length}">${colFields.join('')}</colFields>` : ''}<colItems count="${colItems.length}">${colItems.join('')}</colItems>${pageXml.length > 0 ? `<pageFields count="${pageXml.length}">${pageXml.join('')}</pageFields>` : ''}<dataFields count="${dataXml.length}">${dataXml.join('')}</dataFields><pivotTableStyleInfo name="PivotStyleLight16" showRowHeaders="1" showColHeaders="1" showRowStripes="0" showColStripes="0" showLastColumn="1"/></pivotTableDefinition>`
}
