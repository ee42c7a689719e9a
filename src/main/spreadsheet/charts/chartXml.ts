import { type Area, areaName, columnLetters, sheetPrefix } from '../cells/address'
import { escapeXml } from '../ooxml/packageParts'

export const CHART_TYPES = ['column', 'bar', 'line', 'pie', 'scatter', 'area'] as const
export type ChartType = (typeof CHART_TYPES)[number]

export interface ChartSeries {
  name: string
  nameRef: string
  valuesRef: string
  values: (number | null)[]
}

export interface ChartData {
  categoriesRef: string
  categories: string[]
  /** Numbers when the category column is numeric (scatter x values). */
  categoryNumbers: (number | null)[]
  series: ChartSeries[]
}

function ref(sheet: string, area: Area): string {
  const abs = areaName(area).replace(/([A-Z]+)(\d+)/g, '$$$1$$$2')
  return `${sheetPrefix(sheet)}${abs}`
}

/** Splits `data_range`: header row = series names, first column = categories, other columns = series. */
export function chartRefs(
  sheet: string,
  area: Area,
): { categories: string; series: { name: string; values: string }[] } {
  const body = { top: area.top + 1, bottom: area.bottom }
  return {
    categories: ref(sheet, { ...body, left: area.left, right: area.left }),
    series: Array.from({ length: area.right - area.left }, (_, i) => {
      const col = area.left + 1 + i
      return {
        name: ref(sheet, { top: area.top, bottom: area.top, left: col, right: col }),
        values: ref(sheet, { ...body, left: col, right: col }),
      }
    }),
  }
}

function strCache(values: string[]): string {
  return `<c:strCache><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${escapeXml(v)}</c:v></c:pt>`).join('')}</c:strCache>`
}

function numCache(values: (number | null)[]): string {
  return `<c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="${values.length}"/>${values
    .map((v, i) => (v === null ? '' : `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`))
    .join('')}</c:numCache>`
}

function seriesXml(type: ChartType, data: ChartData, s: ChartSeries, i: number): string {
  const tx = `<c:tx><c:strRef><c:f>${escapeXml(s.nameRef)}</c:f>${strCache([s.name])}</c:strRef></c:tx>`
  const vals = `<c:numRef><c:f>${escapeXml(s.valuesRef)}</c:f>${numCache(s.values)}</c:numRef>`
  const cats = `<c:strRef><c:f>${escapeXml(data.categoriesRef)}</c:f>${strCache(data.categories)}</c:strRef>`
  const head = `<c:idx val="${i}"/><c:order val="${i}"/>${tx}`
  if (type === 'scatter') {
    const x = `<c:numRef><c:f>${escapeXml(data.categoriesRef)}</c:f>${numCache(data.categoryNumbers)}</c:numRef>`
    return `<c:ser>${head}<c:spPr><a:ln w="28575"><a:noFill/></a:ln></c:spPr><c:marker><c:symbol val="circle"/><c:size val="6"/></c:marker><c:xVal>${x}</c:xVal><c:yVal>${vals}</c:yVal><c:smooth val="0"/></c:ser>`
  }
  const marker = type === 'line' ? '<c:marker><c:symbol val="none"/></c:marker>' : ''
  const extra =
    type === 'line'
      ? '<c:smooth val="0"/>'
      : type === 'column' || type === 'bar'
        ? '<c:invertIfNegative val="0"/>'
        : ''
  const invert = extra === '<c:invertIfNegative val="0"/>' ? extra : ''
  const tailExtra = type === 'line' ? extra : ''
  return `<c:ser>${head}${invert}${marker}<c:cat>${cats}</c:cat><c:val>${vals}</c:val>${tailExtra}</c:ser>`
}

const AXES = '<c:axId val="500000001"/><c:axId val="500000002"/>'

function axes(type: ChartType): string {
  if (type === 'pie') return ''
  const horizontal = type === 'bar'
  const catPos = horizontal ? 'l' : 'b'
  const valPos = horizontal ? 'b' : 'l'
  const common = '<c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>'
  const valAx = (id: string, cross: string, pos: string, grid: boolean) =>
    `<c:valAx><c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="${pos}"/>${grid ? '<c:majorGridlines/>' : ''}<c:numFmt formatCode="General" sourceLinked="1"/>${common}<c:crossAx val="${cross}"/><c:crosses val="autoZero"/><c:crossBetween val="${type === 'scatter' ? 'midCat' : 'between'}"/></c:valAx>`
  if (type === 'scatter')
    return valAx('500000001', '500000002', 'b', false) + valAx('500000002', '500000001', 'l', true)
  const catAx = `<c:catAx><c:axId val="500000001"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="${catPos}"/><c:numFmt formatCode="General" sourceLinked="1"/>${common}<c:crossAx val="500000002"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>`
  return catAx + valAx('500000002', '500000001', valPos, true)
}

function plot(type: ChartType, series: string): string {
  switch (type) {
    case 'column':
    case 'bar':
      return `<c:barChart><c:barDir val="${type === 'bar' ? 'bar' : 'col'}"/><c:grouping val="clustered"/><c:varyColors val="0"/>${series}<c:gapWidth val="150"/>${AXES}</c:barChart>`
    case 'line':
      return `<c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/>${series}<c:marker val="1"/>${AXES}</c:lineChart>`
    case 'area':
      return `<c:areaChart><c:grouping val="standard"/><c:varyColors val="0"/>${series}${AXES}</c:areaChart>`
    case 'pie':
      return `<c:pieChart><c:varyColors val="1"/>${series}<c:firstSliceAng val="0"/></c:pieChart>`
    case 'scatter':
      return `<c:scatterChart><c:scatterStyle val="lineMarker"/><c:varyColors val="0"/>${series}${AXES}</c:scatterChart>`
  }
}

function titleXml(title: string): string {
  return `<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr b="1"/></a:pPr><a:r><a:rPr lang="en-US" b="1"/><a:t>${escapeXml(title)}</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title>`
}

/** A DrawingML chart part with the data references and cached values (so readers show it at once). */
export function chartPartXml(type: ChartType, data: ChartData, title: string | undefined): string {
  const series = data.series.map((s, i) => seriesXml(type, data, s, i)).join('')
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><c:roundedCorners val="0"/><c:chart>${title ? `${titleXml(title)}<c:autoTitleDeleted val="0"/>` : '<c:autoTitleDeleted val="1"/>'}<c:plotArea><c:layout/>${plot(type, series)}${axes(type)}</c:plotArea><c:legend><c:legendPos val="${type === 'pie' ? 'r' : 'b'}"/><c:overlay val="0"/></c:legend><c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart></c:chartSpace>`
}

export interface ChartAnchor {
  /** Zero-based, as DrawingML counts. */
  col: number
  row: number
  widthCols: number
  heightRows: number
}

export function anchorXml(anchor: ChartAnchor, relId: string, id: number, name: string): string {
  const marker = (col: number, row: number) =>
    `<xdr:col>${col}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${row}</xdr:row><xdr:rowOff>0</xdr:rowOff>`
  return `<xdr:twoCellAnchor editAs="oneCell"><xdr:from>${marker(anchor.col, anchor.row)}</xdr:from><xdr:to>${marker(anchor.col + anchor.widthCols, anchor.row + anchor.heightRows)}</xdr:to><xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="${id}" name="${escapeXml(name)}"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="${relId}"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor>`
}

export const EMPTY_DRAWING = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"></xdr:wsDr>`

export function defaultAnchorFor(area: Area): ChartAnchor {
  return { col: area.right + 1, row: area.top - 1, widthCols: 8, heightRows: 15 }
}

export { columnLetters }
