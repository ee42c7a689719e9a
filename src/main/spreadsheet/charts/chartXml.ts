import { type Area, areaName, columnLetters, sheetPrefix } from '../cells/address'
import { escapeXml } from '../ooxml/packageParts'

export const CHART_TYPES = ['column', 'bar', 'line', 'pie', 'doughnut', 'scatter', 'area'] as const
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

/** Options beyond type, data and title; every one is optional and defaults to what the chart had before. */
export interface ChartOptions {
  legend?: 'top' | 'bottom' | 'left' | 'right' | 'none'
  xAxisTitle?: string
  yAxisTitle?: string
  dataLabels?: 'value' | 'percent' | 'none'
  trendline?: 'linear' | 'moving_average'
  grouping?: 'clustered' | 'stacked' | 'percent_stacked'
  /** Bars: space between groups (0–500 % of a bar) and overlap of bars in a group (-100–100). */
  gapWidth?: number
  overlap?: number
  /** Lines: markers on the points, smooth curves. */
  markers?: boolean
  smooth?: boolean
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

function dataLabelsXml(labels: ChartOptions['dataLabels']): string {
  if (!labels || labels === 'none') return ''
  const value = labels === 'value' ? 1 : 0
  const percent = labels === 'percent' ? 1 : 0
  return `<c:dLbls><c:showLegendKey val="0"/><c:showVal val="${value}"/><c:showCatName val="0"/><c:showSerName val="0"/><c:showPercent val="${percent}"/><c:showBubbleSize val="0"/></c:dLbls>`
}

function trendlineXml(type: ChartType, trendline: ChartOptions['trendline']): string {
  if (!trendline || type === 'pie' || type === 'doughnut') return ''
  return trendline === 'linear'
    ? '<c:trendline><c:trendlineType val="linear"/><c:dispRSqr val="0"/><c:dispEq val="0"/></c:trendline>'
    : '<c:trendline><c:trendlineType val="movingAvg"/><c:period val="2"/><c:dispRSqr val="0"/><c:dispEq val="0"/></c:trendline>'
}

function seriesXml(type: ChartType, data: ChartData, s: ChartSeries, i: number, o: ChartOptions): string {
  const tx = `<c:tx><c:strRef><c:f>${escapeXml(s.nameRef)}</c:f>${strCache([s.name])}</c:strRef></c:tx>`
  const vals = `<c:numRef><c:f>${escapeXml(s.valuesRef)}</c:f>${numCache(s.values)}</c:numRef>`
  const cats = `<c:strRef><c:f>${escapeXml(data.categoriesRef)}</c:f>${strCache(data.categories)}</c:strRef>`
  const head = `<c:idx val="${i}"/><c:order val="${i}"/>${tx}`
  const labels = dataLabelsXml(o.dataLabels)
  const trend = trendlineXml(type, o.trendline)
  if (type === 'scatter') {
    const x = `<c:numRef><c:f>${escapeXml(data.categoriesRef)}</c:f>${numCache(data.categoryNumbers)}</c:numRef>`
    return `<c:ser>${head}<c:spPr><a:ln w="28575"><a:noFill/></a:ln></c:spPr><c:marker><c:symbol val="circle"/><c:size val="6"/></c:marker>${labels}${trend}<c:xVal>${x}</c:xVal><c:yVal>${vals}</c:yVal><c:smooth val="0"/></c:ser>`
  }
  if (type === 'pie' || type === 'doughnut')
    return `<c:ser>${head}${labels}<c:cat>${cats}</c:cat><c:val>${vals}</c:val></c:ser>`
  if (type === 'line') {
    const marker = o.markers
      ? '<c:marker><c:symbol val="circle"/><c:size val="5"/></c:marker>'
      : '<c:marker><c:symbol val="none"/></c:marker>'
    return `<c:ser>${head}${marker}${labels}${trend}<c:cat>${cats}</c:cat><c:val>${vals}</c:val><c:smooth val="${o.smooth ? 1 : 0}"/></c:ser>`
  }
  const invert = type === 'column' || type === 'bar' ? '<c:invertIfNegative val="0"/>' : ''
  return `<c:ser>${head}${invert}${labels}${trend}<c:cat>${cats}</c:cat><c:val>${vals}</c:val></c:ser>`
}

const AXES = '<c:axId val="500000001"/><c:axId val="500000002"/>'

function axisTitle(text: string | undefined): string {
  return text ? titleXml(text).replace(' b="1"/>', '/>').replace('<a:defRPr b="1"/>', '<a:defRPr/>') : ''
}

function axes(type: ChartType, o: ChartOptions): string {
  if (type === 'pie' || type === 'doughnut') return ''
  const horizontal = type === 'bar'
  const catPos = horizontal ? 'l' : 'b'
  const valPos = horizontal ? 'b' : 'l'
  const common = '<c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>'
  const valAx = (id: string, cross: string, pos: string, grid: boolean, title?: string) =>
    `<c:valAx><c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="${pos}"/>${grid ? '<c:majorGridlines/>' : ''}${axisTitle(title)}<c:numFmt formatCode="General" sourceLinked="1"/>${common}<c:crossAx val="${cross}"/><c:crosses val="autoZero"/><c:crossBetween val="${type === 'scatter' ? 'midCat' : 'between'}"/></c:valAx>`
  if (type === 'scatter')
    return (
      valAx('500000001', '500000002', 'b', false, o.xAxisTitle) +
      valAx('500000002', '500000001', 'l', true, o.yAxisTitle)
    )
  const catAx = `<c:catAx><c:axId val="500000001"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="${catPos}"/>${axisTitle(o.xAxisTitle)}<c:numFmt formatCode="General" sourceLinked="1"/>${common}<c:crossAx val="500000002"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>`
  return catAx + valAx('500000002', '500000001', valPos, true, o.yAxisTitle)
}

const GROUPING = { clustered: 'clustered', stacked: 'stacked', percent_stacked: 'percentStacked' } as const

function plot(type: ChartType, series: string, o: ChartOptions): string {
  const grouping = o.grouping ?? 'clustered'
  const stacked = grouping !== 'clustered'
  const labels = dataLabelsXml(o.dataLabels)
  switch (type) {
    case 'column':
    case 'bar': {
      const overlap = o.overlap ?? (stacked ? 100 : undefined)
      return `<c:barChart><c:barDir val="${type === 'bar' ? 'bar' : 'col'}"/><c:grouping val="${GROUPING[grouping]}"/><c:varyColors val="0"/>${series}${labels}<c:gapWidth val="${o.gapWidth ?? 150}"/>${overlap === undefined ? '' : `<c:overlap val="${overlap}"/>`}${AXES}</c:barChart>`
    }
    case 'line':
      return `<c:lineChart><c:grouping val="${stacked ? GROUPING[grouping] : 'standard'}"/><c:varyColors val="0"/>${series}${labels}<c:marker val="1"/>${AXES}</c:lineChart>`
    case 'area':
      return `<c:areaChart><c:grouping val="${stacked ? GROUPING[grouping] : 'standard'}"/><c:varyColors val="0"/>${series}${labels}${AXES}</c:areaChart>`
    case 'pie':
      return `<c:pieChart><c:varyColors val="1"/>${series}${labels}<c:firstSliceAng val="0"/></c:pieChart>`
    case 'doughnut':
      return `<c:doughnutChart><c:varyColors val="1"/>${series}${labels}<c:firstSliceAng val="0"/><c:holeSize val="50"/></c:doughnutChart>`
    case 'scatter':
      return `<c:scatterChart><c:scatterStyle val="lineMarker"/><c:varyColors val="0"/>${series}${labels}${AXES}</c:scatterChart>`
  }
}

function titleXml(title: string): string {
  return `<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr b="1"/></a:pPr><a:r><a:rPr lang="en-US" b="1"/><a:t>${escapeXml(title)}</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title>`
}

/** A DrawingML chart part with the data references and cached values (so readers show it at once). */
export function chartPartXml(
  type: ChartType,
  data: ChartData,
  title: string | undefined,
  options: ChartOptions = {},
): string {
  const o = options
  const series = data.series.map((s, i) => seriesXml(type, data, s, i, o)).join('')
  const round = type === 'pie' || type === 'doughnut'
  const position = { top: 't', bottom: 'b', left: 'l', right: 'r', none: '' }[
    o.legend ?? (round ? 'right' : 'bottom')
  ]
  const legend = position ? `<c:legend><c:legendPos val="${position}"/><c:overlay val="0"/></c:legend>` : ''
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><c:roundedCorners val="0"/><c:chart>${title ? `${titleXml(title)}<c:autoTitleDeleted val="0"/>` : '<c:autoTitleDeleted val="1"/>'}<c:plotArea><c:layout/>${plot(type, series, o)}${axes(type, o)}</c:plotArea>${legend}<c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart></c:chartSpace>`
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
