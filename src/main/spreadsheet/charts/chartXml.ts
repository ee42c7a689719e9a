import { type Area, areaName, columnLetters, sheetPrefix } from '../cells/address'
import { escapeXml } from '../ooxml/packageParts'

export const CHART_TYPES = ['column', 'bar', 'line', 'pie', 'doughnut', 'scatter', 'area', 'combo'] as const
export type ChartType = (typeof CHART_TYPES)[number]
/** The kind of one plot group (a combo chart has several). */
export type PlotKind = Exclude<ChartType, 'combo'>
/** What one series of a combo (or any column, line, area chart) may be drawn as. */
export const SERIES_TYPES = ['column', 'line', 'area'] as const
export const LINE_STYLES = ['solid', 'dashed', 'dotted'] as const
export const MARKER_STYLES = ['none', 'circle', 'square', 'diamond', 'triangle'] as const

export interface ChartSeries {
  name: string
  /** The cell holding the name; absent when the name is given as text. */
  nameRef?: string
  valuesRef: string
  values: (number | null)[]
  /** The series' own categories (x values for scatter); the chart's shared ones when absent. */
  categoriesRef?: string
  categories?: string[]
  categoryNumbers?: (number | null)[]
  /** Drawn as this kind (combo charts); the chart's type when absent. */
  type?: PlotKind
  secondary?: boolean
  /** A series' own `<c:spPr>` kept from an existing chart (its colours and line). */
  shapeXml?: string
}

export interface ChartData {
  categoriesRef?: string
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
  /** Title of the secondary value axis (series with `secondary`). */
  secondaryAxisTitle?: string
  dataLabels?: 'value' | 'percent' | 'none'
  trendline?: 'linear' | 'moving_average' | 'none'
  grouping?: 'clustered' | 'stacked' | 'percent_stacked'
  /** Bars: space between groups (0–500 % of a bar) and overlap of bars in a group (-100–100). */
  gapWidth?: number
  overlap?: number
  /** Lines: markers on the points, smooth curves, dash and marker shape. */
  markers?: boolean
  smooth?: boolean
  lineStyle?: (typeof LINE_STYLES)[number]
  markerStyle?: (typeof MARKER_STYLES)[number]
}

function ref(sheet: string, area: Area): string {
  const abs = areaName(area).replace(/([A-Z]+)(\d+)/g, '$$$1$$$2')
  return `${sheetPrefix(sheet)}${abs}`
}

/** An absolute, sheet-qualified reference as chart parts store them, e.g. `Data!$B$2:$B$13`. */
export const chartRef = ref

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

export function dataLabelsXml(labels: ChartOptions['dataLabels']): string {
  if (!labels || labels === 'none') return ''
  const value = labels === 'value' ? 1 : 0
  const percent = labels === 'percent' ? 1 : 0
  return `<c:dLbls><c:showLegendKey val="0"/><c:showVal val="${value}"/><c:showCatName val="0"/><c:showSerName val="0"/><c:showPercent val="${percent}"/><c:showBubbleSize val="0"/></c:dLbls>`
}

export function trendlineXml(kind: PlotKind, trendline: ChartOptions['trendline']): string {
  if (!trendline || trendline === 'none' || kind === 'pie' || kind === 'doughnut') return ''
  return trendline === 'linear'
    ? '<c:trendline><c:trendlineType val="linear"/><c:dispRSqr val="0"/><c:dispEq val="0"/></c:trendline>'
    : '<c:trendline><c:trendlineType val="movingAvg"/><c:period val="2"/><c:dispRSqr val="0"/><c:dispEq val="0"/></c:trendline>'
}

const DASH = { solid: '', dashed: '<a:prstDash val="dash"/>', dotted: '<a:prstDash val="sysDot"/>' } as const

function markerXml(o: ChartOptions): string {
  const symbol = o.markerStyle ?? (o.markers ? 'circle' : 'none')
  return symbol === 'none'
    ? '<c:marker><c:symbol val="none"/></c:marker>'
    : `<c:marker><c:symbol val="${symbol}"/><c:size val="5"/></c:marker>`
}

/** The kind each series is drawn as: its own, else the chart's (a combo's first series is a column, the rest lines). */
export function seriesKind(type: ChartType, s: ChartSeries, i: number): PlotKind {
  if (s.type) return s.type
  if (type === 'combo') return i === 0 ? 'column' : 'line'
  return type
}

function seriesXml(kind: PlotKind, data: ChartData, s: ChartSeries, i: number, o: ChartOptions): string {
  const tx = s.nameRef
    ? `<c:tx><c:strRef><c:f>${escapeXml(s.nameRef)}</c:f>${strCache([s.name])}</c:strRef></c:tx>`
    : `<c:tx><c:v>${escapeXml(s.name)}</c:v></c:tx>`
  const vals = `<c:numRef><c:f>${escapeXml(s.valuesRef)}</c:f>${numCache(s.values)}</c:numRef>`
  const catRef = s.categoriesRef ?? data.categoriesRef
  const catNames = s.categories ?? data.categories
  const cats = catRef
    ? `<c:cat><c:strRef><c:f>${escapeXml(catRef)}</c:f>${strCache(catNames)}</c:strRef></c:cat>`
    : ''
  const head = `<c:idx val="${i}"/><c:order val="${i}"/>${tx}`
  const labels = dataLabelsXml(o.dataLabels)
  const trend = trendlineXml(kind, o.trendline)
  if (kind === 'scatter') {
    const x = catRef
      ? `<c:xVal><c:numRef><c:f>${escapeXml(catRef)}</c:f>${numCache(s.categoryNumbers ?? data.categoryNumbers)}</c:numRef></c:xVal>`
      : ''
    const shape = s.shapeXml ?? '<c:spPr><a:ln w="28575"><a:noFill/></a:ln></c:spPr>'
    const marker =
      o.markerStyle && o.markerStyle !== 'none'
        ? markerXml(o)
        : '<c:marker><c:symbol val="circle"/><c:size val="6"/></c:marker>'
    return `<c:ser>${head}${shape}${marker}${labels}${trend}${x}<c:yVal>${vals}</c:yVal><c:smooth val="0"/></c:ser>`
  }
  if (kind === 'pie' || kind === 'doughnut')
    return `<c:ser>${head}${s.shapeXml ?? ''}${labels}${cats}<c:val>${vals}</c:val></c:ser>`
  if (kind === 'line') {
    const dash = DASH[o.lineStyle ?? 'solid']
    const shape = s.shapeXml ?? (dash ? `<c:spPr><a:ln w="28575">${dash}</a:ln></c:spPr>` : '')
    return `<c:ser>${head}${shape}${markerXml(o)}${labels}${trend}${cats}<c:val>${vals}</c:val><c:smooth val="${o.smooth ? 1 : 0}"/></c:ser>`
  }
  const invert = kind === 'column' || kind === 'bar' ? '<c:invertIfNegative val="0"/>' : ''
  return `<c:ser>${head}${s.shapeXml ?? ''}${invert}${labels}${trend}${cats}<c:val>${vals}</c:val></c:ser>`
}

/** Axis ids: the primary category and value axes, then the secondary pair. */
const AX = { cat: '500000001', val: '500000002', cat2: '500000003', val2: '500000004' } as const

function axisTitle(text: string | undefined): string {
  return text ? titleXml(text).replace(' b="1"/>', '/>').replace('<a:defRPr b="1"/>', '<a:defRPr/>') : ''
}

function axes(kind: PlotKind, secondary: boolean, o: ChartOptions): string {
  if (kind === 'pie' || kind === 'doughnut') return ''
  const horizontal = kind === 'bar'
  const catPos = horizontal ? 'l' : 'b'
  const valPos = horizontal ? 'b' : 'l'
  const common = '<c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>'
  const between = kind === 'scatter' ? 'midCat' : 'between'
  const valAx = (
    id: string,
    cross: string,
    pos: string,
    grid: boolean,
    title?: string,
    crosses = 'autoZero',
  ) =>
    `<c:valAx><c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="${pos}"/>${grid ? '<c:majorGridlines/>' : ''}${axisTitle(title)}<c:numFmt formatCode="General" sourceLinked="1"/>${common}<c:crossAx val="${cross}"/><c:crosses val="${crosses}"/><c:crossBetween val="${between}"/></c:valAx>`
  if (kind === 'scatter')
    return valAx(AX.cat, AX.val, 'b', false, o.xAxisTitle) + valAx(AX.val, AX.cat, 'l', true, o.yAxisTitle)
  const catAx = (id: string, cross: string, deleted: boolean, title?: string) =>
    `<c:catAx><c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="${deleted ? 1 : 0}"/><c:axPos val="${catPos}"/>${axisTitle(title)}<c:numFmt formatCode="General" sourceLinked="1"/>${common}<c:crossAx val="${cross}"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>`
  const primary =
    catAx(AX.cat, AX.val, false, o.xAxisTitle) + valAx(AX.val, AX.cat, valPos, true, o.yAxisTitle)
  if (!secondary) return primary
  // The secondary value axis sits on the far side, crossing its (hidden) category axis at its maximum.
  return (
    primary +
    catAx(AX.cat2, AX.val2, true) +
    valAx(AX.val2, AX.cat2, horizontal ? 't' : 'r', false, o.secondaryAxisTitle, 'max')
  )
}

const GROUPING = { clustered: 'clustered', stacked: 'stacked', percent_stacked: 'percentStacked' } as const

function plot(kind: PlotKind, series: string, o: ChartOptions, secondary: boolean): string {
  const grouping = o.grouping ?? 'clustered'
  const stacked = grouping !== 'clustered'
  const labels = dataLabelsXml(o.dataLabels)
  const ids = secondary
    ? `<c:axId val="${AX.cat2}"/><c:axId val="${AX.val2}"/>`
    : `<c:axId val="${AX.cat}"/><c:axId val="${AX.val}"/>`
  switch (kind) {
    case 'column':
    case 'bar': {
      const overlap = o.overlap ?? (stacked ? 100 : undefined)
      return `<c:barChart><c:barDir val="${kind === 'bar' ? 'bar' : 'col'}"/><c:grouping val="${GROUPING[grouping]}"/><c:varyColors val="0"/>${series}${labels}<c:gapWidth val="${o.gapWidth ?? 150}"/>${overlap === undefined ? '' : `<c:overlap val="${overlap}"/>`}${ids}</c:barChart>`
    }
    case 'line':
      return `<c:lineChart><c:grouping val="${stacked ? GROUPING[grouping] : 'standard'}"/><c:varyColors val="0"/>${series}${labels}<c:marker val="1"/>${ids}</c:lineChart>`
    case 'area':
      return `<c:areaChart><c:grouping val="${stacked ? GROUPING[grouping] : 'standard'}"/><c:varyColors val="0"/>${series}${labels}${ids}</c:areaChart>`
    case 'pie':
      return `<c:pieChart><c:varyColors val="1"/>${series}${labels}<c:firstSliceAng val="0"/></c:pieChart>`
    case 'doughnut':
      return `<c:doughnutChart><c:varyColors val="1"/>${series}${labels}<c:firstSliceAng val="0"/><c:holeSize val="50"/></c:doughnutChart>`
    case 'scatter':
      return `<c:scatterChart><c:scatterStyle val="lineMarker"/><c:varyColors val="0"/>${series}${labels}${ids}</c:scatterChart>`
  }
}

function titleXml(title: string): string {
  return `<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr b="1"/></a:pPr><a:r><a:rPr lang="en-US" b="1"/><a:t>${escapeXml(title)}</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title>`
}

export { axisTitle as axisTitleXml, titleXml }

/**
 * Why these series cannot share one chart of this type, or undefined. Excel's rules: horizontal bars and
 * pies do not mix with other kinds, scatter and round charts have no secondary axis, stacked series take no
 * trendline, and percent labels are for round charts.
 */
export function chartProblem(type: ChartType, data: ChartData, o: ChartOptions): string | undefined {
  const kinds = data.series.map((s, i) => seriesKind(type, s, i))
  const distinct = new Set(kinds)
  const solo = ['bar', 'pie', 'doughnut', 'scatter'] as const
  for (const k of solo)
    if (distinct.has(k) && distinct.size > 1)
      return `a ${k} series cannot share a chart with ${[...distinct].filter((d) => d !== k).join(', ')} series`
  const first = kinds[0] ?? (type === 'combo' ? 'column' : type)
  if (
    data.series.some((s) => s.secondary) &&
    (first === 'pie' || first === 'doughnut' || first === 'scatter')
  )
    return `a ${first} chart has no secondary axis`
  if (data.series.length > 0 && data.series.every((s) => s.secondary))
    return 'at least one series must stay on the primary axis'
  if (o.trendline && o.trendline !== 'none') {
    if (first === 'pie' || first === 'doughnut') return `a ${first} chart takes no trendline`
    if (o.grouping && o.grouping !== 'clustered')
      return 'stacked series take no trendline (Excel allows none)'
  }
  if (o.dataLabels === 'percent' && first !== 'pie' && first !== 'doughnut')
    return 'percent data labels are for pie and doughnut charts; use value'
  if (o.secondaryAxisTitle && !data.series.some((s) => s.secondary))
    return 'secondary_y_axis_title needs a series with secondary_axis: true'
  return undefined
}

/** The plot area: one group per kind and axis (a combo has several), then the axes. */
export function plotAreaXml(
  type: ChartType,
  data: ChartData,
  o: ChartOptions,
  layout = '<c:layout/>',
): string {
  const groups = new Map<string, { kind: PlotKind; secondary: boolean; series: string[] }>()
  data.series.forEach((s, i) => {
    const kind = seriesKind(type, s, i)
    const round = kind === 'pie' || kind === 'doughnut' || kind === 'scatter'
    const secondary = !round && s.secondary === true
    const key = `${secondary ? 1 : 0}${kind}`
    const group = groups.get(key) ?? { kind, secondary, series: [] }
    group.series.push(seriesXml(kind, data, s, i, o))
    groups.set(key, group)
  })
  const ordered = [...groups.entries()].sort(([a], [b]) => a[0]!.localeCompare(b[0]!)).map(([, g]) => g)
  const first = ordered[0]?.kind ?? (type === 'combo' ? 'column' : type)
  const secondary = ordered.some((g) => g.secondary)
  return `<c:plotArea>${layout}${ordered.map((g) => plot(g.kind, g.series.join(''), o, g.secondary)).join('')}${axes(first, secondary, o)}</c:plotArea>`
}

export function legendXml(type: ChartType, legend: ChartOptions['legend']): string {
  const round = type === 'pie' || type === 'doughnut'
  const position = { top: 't', bottom: 'b', left: 'l', right: 'r', none: '' }[
    legend ?? (round ? 'right' : 'bottom')
  ]
  return position ? `<c:legend><c:legendPos val="${position}"/><c:overlay val="0"/></c:legend>` : ''
}

/** A DrawingML chart part with the data references and cached values (so readers show it at once). */
export function chartPartXml(
  type: ChartType,
  data: ChartData,
  title: string | undefined,
  options: ChartOptions = {},
): string {
  const o = options
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><c:roundedCorners val="0"/><c:chart>${title ? `${titleXml(title)}<c:autoTitleDeleted val="0"/>` : '<c:autoTitleDeleted val="1"/>'}${plotAreaXml(type, data, o)}${legendXml(type, o.legend)}<c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart></c:chartSpace>`
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
