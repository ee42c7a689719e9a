import { DOMParser, XMLSerializer } from '@xmldom/xmldom'
import type { ChartOptions, ChartSeries, PlotKind } from './chartXml'

// A chart part read as a DOM: what update_chart changes and what receipts report, from the XML as it will
// be stored. Any prefix may stand for the chart namespace; elements are found by namespace and local name.

export const C_NS = 'http://schemas.openxmlformats.org/drawingml/2006/chart'
export const A_NS = 'http://schemas.openxmlformats.org/drawingml/2006/main'

export type XmlDocument = ReturnType<DOMParser['parseFromString']>
export type XmlElement = NonNullable<XmlDocument['documentElement']>

export function parseChart(xml: string): XmlDocument {
  const errors: string[] = []
  const doc = new DOMParser({
    errorHandler: (level: string, message: unknown) => {
      if (level !== 'warning') errors.push(String(message))
    },
  }).parseFromString(xml, 'text/xml')
  const root = doc.documentElement
  if (errors.length > 0 || !root || root.namespaceURI !== C_NS || root.localName !== 'chartSpace')
    throw new Error(`not a chart part${errors[0] ? `: ${errors[0]}` : ''}`)
  return doc
}

export function serialize(doc: XmlDocument): string {
  return new XMLSerializer().serializeToString(doc)
}

export function kids(el: XmlElement | undefined, name?: string, ns = C_NS): XmlElement[] {
  if (!el) return []
  const out: XmlElement[] = []
  for (let n = el.firstChild; n; n = n.nextSibling)
    if (n.nodeType === 1) {
      const e = n as XmlElement
      if (name === undefined || (e.localName === name && e.namespaceURI === ns)) out.push(e)
    }
  return out
}

export const kid = (el: XmlElement | undefined, name: string, ns = C_NS): XmlElement | undefined =>
  kids(el, name, ns)[0]

const val = (el: XmlElement | undefined): string | undefined => el?.getAttribute('val') ?? undefined

function texts(el: XmlElement | undefined, name: string, ns: string): string[] {
  if (!el) return []
  return Array.from(el.getElementsByTagNameNS(ns, name)).map((e) => e.textContent ?? '')
}

/** A title's text: its rich-text runs, or the cached value of the cell it names. */
export function titleText(title: XmlElement | undefined): string | undefined {
  if (!title) return undefined
  const tx = kid(title, 'tx')
  const text = texts(tx, 't', A_NS).join('') || texts(tx, 'v', C_NS).join('')
  return text || undefined
}

export const PLOT_KINDS: Record<string, PlotKind> = {
  barChart: 'column',
  bar3DChart: 'column',
  lineChart: 'line',
  line3DChart: 'line',
  areaChart: 'area',
  area3DChart: 'area',
  pieChart: 'pie',
  pie3DChart: 'pie',
  ofPieChart: 'pie',
  doughnutChart: 'doughnut',
  scatterChart: 'scatter',
}

export interface PlotGroup {
  el: XmlElement
  kind: PlotKind
  secondary: boolean
}

export function chartElement(doc: XmlDocument): XmlElement {
  const chart = kid(doc.documentElement!, 'chart')
  if (!chart) throw new Error('the chart part has no c:chart element')
  return chart
}

export function plotGroups(doc: XmlDocument): PlotGroup[] {
  const plotArea = kid(chartElement(doc), 'plotArea')
  const groups = kids(plotArea).filter((e) => e.namespaceURI === C_NS && e.localName in PLOT_KINDS)
  const primary = kids(groups[0], 'axId').map(val).join(' ')
  return groups.map((el) => {
    let kind = PLOT_KINDS[el.localName!]!
    if (kind === 'column' && val(kid(el, 'barDir')) === 'bar') kind = 'bar'
    const ids = kids(el, 'axId').map(val).join(' ')
    return { el, kind, secondary: ids !== '' && ids !== primary }
  })
}

function cache(el: XmlElement | undefined): (string | undefined)[] {
  const store =
    kid(el, 'strCache') ??
    kid(el, 'numCache') ??
    kid(el, 'strLit') ??
    kid(el, 'numLit') ??
    kid(el, 'multiLvlStrCache')
  if (!store) return []
  const out: (string | undefined)[] = Array.from({
    length: Math.min(Number(val(kid(store, 'ptCount')) ?? 0) || 0, 1_048_576),
  })
  for (const pt of kids(store, 'pt')) {
    const index = Number(pt.getAttribute('idx'))
    if (Number.isInteger(index) && index >= 0 && index < 1_048_576)
      out[index] = kid(pt, 'v')?.textContent ?? undefined
  }
  return out
}

function reference(el: XmlElement | undefined): { ref?: string; points: (string | undefined)[] } {
  const holder = kid(el, 'strRef') ?? kid(el, 'numRef') ?? kid(el, 'multiLvlStrRef') ?? el
  return { ref: kid(holder, 'f')?.textContent ?? undefined, points: cache(holder) }
}

const toNumber = (p: string | undefined) => {
  const n = p === undefined || p === '' ? Number.NaN : Number(p)
  return Number.isFinite(n) ? n : null
}

/** A series read back: references, cached values and its own shape properties (colours, line). */
export interface ReadSeries extends ChartSeries {
  type: PlotKind
  el: XmlElement
}

export function readSeries(groups: PlotGroup[]): ReadSeries[] {
  const serializer = new XMLSerializer()
  return groups.flatMap((g) =>
    kids(g.el, 'ser').map((ser, i) => {
      const tx = kid(ser, 'tx')
      const name = reference(tx)
      const scatter = g.kind === 'scatter'
      const values = reference(kid(ser, scatter ? 'yVal' : 'val'))
      const cats = reference(kid(ser, scatter ? 'xVal' : 'cat'))
      const shape = kid(ser, 'spPr')
      const out: ReadSeries = {
        el: ser,
        type: g.kind,
        name: (name.ref ? name.points[0] : kid(tx, 'v')?.textContent) ?? `Series ${i + 1}`,
        valuesRef: values.ref ?? '',
        values: values.points.map(toNumber),
      }
      if (name.ref) out.nameRef = name.ref
      if (cats.ref) {
        out.categoriesRef = cats.ref
        out.categories = cats.points.map((p) => p ?? '')
        out.categoryNumbers = cats.points.map(toNumber)
      }
      if (g.secondary) out.secondary = true
      if (shape) out.shapeXml = serializer.serializeToString(shape)
      return out
    }),
  )
}

/** The value axes and category axis of a chart, found through the ids its plot groups use. */
export function chartAxes(doc: XmlDocument): { x?: XmlElement; y?: XmlElement; y2?: XmlElement } {
  const plotArea = kid(chartElement(doc), 'plotArea')
  const axes = kids(plotArea).filter((e) => /^(valAx|catAx|dateAx|serAx)$/.test(e.localName ?? ''))
  const byId = (id: string | undefined) => axes.find((a) => val(kid(a, 'axId')) === id)
  const groups = plotGroups(doc)
  const primary = groups.find((g) => !g.secondary)
  const secondary = groups.find((g) => g.secondary)
  const [p1, p2] = kids(primary?.el, 'axId').map(val)
  const [, s2] = kids(secondary?.el, 'axId').map(val)
  return { x: byId(p1), y: byId(p2), y2: secondary ? byId(s2) : undefined }
}

/** The options a chart shows, read back from its XML (what the first series and group carry). */
export function readOptions(doc: XmlDocument): ChartOptions {
  const groups = plotGroups(doc)
  const first = groups[0]
  const ser = kid(first?.el, 'ser')
  const axes = chartAxes(doc)
  const o: ChartOptions = {}
  const legendPos = val(kid(kid(chartElement(doc), 'legend'), 'legendPos'))
  const positions = { t: 'top', b: 'bottom', l: 'left', r: 'right', tr: 'right' } as const
  o.legend = kid(chartElement(doc), 'legend')
    ? (positions[(legendPos ?? 'r') as keyof typeof positions] ?? 'right')
    : 'none'
  const x = titleText(kid(axes.x, 'title'))
  const y = titleText(kid(axes.y, 'title'))
  const y2 = titleText(kid(axes.y2, 'title'))
  if (x) o.xAxisTitle = x
  if (y) o.yAxisTitle = y
  if (y2) o.secondaryAxisTitle = y2
  const labels = kid(ser, 'dLbls') ?? kid(first?.el, 'dLbls')
  if (labels)
    o.dataLabels =
      val(kid(labels, 'showPercent')) === '1'
        ? 'percent'
        : val(kid(labels, 'showVal')) === '1'
          ? 'value'
          : 'none'
  const trend = val(kid(kid(ser, 'trendline'), 'trendlineType'))
  if (trend === 'linear') o.trendline = 'linear'
  else if (trend === 'movingAvg') o.trendline = 'moving_average'
  const grouping = val(kid(first?.el, 'grouping'))
  if (grouping === 'stacked') o.grouping = 'stacked'
  else if (grouping === 'percentStacked') o.grouping = 'percent_stacked'
  const gap = val(kid(first?.el, 'gapWidth'))
  if (gap !== undefined) o.gapWidth = Number(gap)
  const overlap = val(kid(first?.el, 'overlap'))
  if (overlap !== undefined) o.overlap = Number(overlap)
  const lineSer = groups.flatMap((g) => (g.kind === 'line' ? kids(g.el, 'ser') : []))[0]
  if (lineSer) {
    const symbol = val(kid(kid(lineSer, 'marker'), 'symbol'))
    if (symbol && symbol !== 'none') o.markers = true
    if (symbol === 'square' || symbol === 'diamond' || symbol === 'triangle' || symbol === 'circle')
      o.markerStyle = symbol
    if (val(kid(lineSer, 'smooth')) === '1') o.smooth = true
    const dash = val(kid(kid(kid(lineSer, 'spPr'), 'ln', A_NS), 'prstDash', A_NS))
    if (dash) o.lineStyle = /dot/i.test(dash) ? 'dotted' : dash === 'solid' ? 'solid' : 'dashed'
  }
  return o
}

/** The chart's type as the tools name it: a combo when it has groups of several kinds or a secondary axis. */
export function chartKind(groups: PlotGroup[]): string {
  const kinds = new Set(groups.map((g) => g.kind))
  if (kinds.size > 1) return 'combo'
  return groups[0]?.kind ?? 'unknown'
}

/** A receipt of a chart as its XML stores it: type, title, each series, and the options set. */
export function describeChartXml(xml: string): string[] {
  const doc = parseChart(xml)
  const groups = plotGroups(doc)
  const title = titleText(kid(chartElement(doc), 'title'))
  const series = readSeries(groups)
  const kind = chartKind(groups)
  const mixed = kind === 'combo' || series.some((s) => s.secondary)
  const o = readOptions(doc)
  const out = [
    `${kind} chart${title ? ` "${title}"` : ''} with ${series.length} series: ${series
      .map(
        (s) =>
          `${s.name} (${mixed ? `${s.type}, ` : ''}${s.valuesRef}${s.categoriesRef ? ` by ${s.categoriesRef}` : ''}${s.secondary ? ', secondary axis' : ''})`,
      )
      .join(', ')}`,
  ]
  const labels: [keyof ChartOptions, string][] = [
    ['legend', 'legend'],
    ['xAxisTitle', 'x axis title'],
    ['yAxisTitle', 'y axis title'],
    ['secondaryAxisTitle', 'secondary axis title'],
    ['dataLabels', 'data labels'],
    ['trendline', 'trendline'],
    ['grouping', 'grouping'],
    ['gapWidth', 'gap width'],
    ['overlap', 'overlap'],
    ['markerStyle', 'markers'],
    ['lineStyle', 'line'],
    ['smooth', 'smooth'],
  ]
  for (const [key, label] of labels) {
    const v = o[key]
    if (v === undefined || (key === 'dataLabels' && v === 'none')) continue
    if (key === 'gapWidth' && v === 150) continue
    out.push(`${label} ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`)
  }
  return out
}
