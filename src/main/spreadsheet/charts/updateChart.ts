import { DOMParser } from '@xmldom/xmldom'
import type { Worksheet } from 'exceljs'
import { invalidInput } from '../errors'
import { partText, setPartText } from '../ooxml/packageParts'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import {
  A_NS,
  C_NS,
  chartAxes,
  chartElement,
  chartKind,
  describeChartXml,
  kid,
  kids,
  PLOT_KINDS,
  parseChart,
  plotGroups,
  readOptions,
  readSeries,
  serialize,
  titleText,
  type XmlDocument,
  type XmlElement,
} from './chartRead'
import {
  axisTitleXml,
  type ChartOptions,
  type ChartSeries,
  type ChartType,
  chartProblem,
  dataLabelsXml,
  legendXml,
  plotAreaXml,
  seriesKind,
  titleXml,
  trendlineXml,
} from './chartXml'
import { pickChart } from './deleteChart'

/** What update_chart changes; everything left undefined stays as the chart has it. */
export interface ChartChange {
  type?: ChartType
  /** An empty title removes it; the same for axis titles. */
  title?: string
  options: ChartOptions
  /** Replaces every series. */
  series?: ChartSeries[]
  addSeries?: ChartSeries[]
  /** Series to remove, by 1-based number or name. */
  removeSeries?: (number | string)[]
}

const NAMESPACES = `xmlns:c="${C_NS}" xmlns:a="${A_NS}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`

/** Parses a fragment of chart XML (c: and a: prefixes) into nodes of `doc`. */
function fragment(doc: XmlDocument, xml: string): XmlElement[] {
  const holder = new DOMParser().parseFromString(
    `<c:x ${NAMESPACES}>${xml}</c:x>`,
    'text/xml',
  ).documentElement
  return kids(holder ?? undefined).map((n) => doc.importNode(n, true) as XmlElement)
}

/** Inserts `nodes` before the first child named in `followers` (the schema's order), else at the end. */
function insertBefore(parent: XmlElement, nodes: XmlElement[], followers: string[]): void {
  const next = kids(parent).find((k) => followers.includes(k.localName ?? ''))
  for (const n of nodes) parent.insertBefore(n, next ?? null)
}

function remove(el: XmlElement | undefined): void {
  el?.parentNode?.removeChild(el)
}

/** Sets a title's text, keeping the first run's formatting where the title is rich text. */
function setTitle(parent: XmlElement, text: string, fresh: string, followers: string[]): void {
  const title = kid(parent, 'title')
  const doc = parent.ownerDocument!
  if (!title) {
    insertBefore(parent, fragment(doc, fresh), followers)
    return
  }
  const rich = kid(kid(title, 'tx'), 'rich')
  if (!rich) {
    remove(kid(title, 'tx'))
    const tx = kid(fragment(doc, fresh)[0], 'tx')!
    title.insertBefore(tx, title.firstChild)
    return
  }
  const paragraphs = kids(rich, 'p', A_NS)
  const first = paragraphs[0]
  const pPr = kid(first, 'pPr', A_NS)
  const rPr = kid(kid(first, 'r', A_NS), 'rPr', A_NS)
  for (const p of paragraphs) remove(p)
  const p = doc.createElementNS(A_NS, 'a:p')
  if (pPr) p.appendChild(pPr)
  const r = doc.createElementNS(A_NS, 'a:r')
  if (rPr) r.appendChild(rPr)
  const t = doc.createElementNS(A_NS, 'a:t')
  t.appendChild(doc.createTextNode(text))
  r.appendChild(t)
  p.appendChild(r)
  rich.appendChild(p)
}

const CHART_AFTER_TITLE = [
  'autoTitleDeleted',
  'pivotFmts',
  'view3D',
  'floor',
  'sideWall',
  'backWall',
  'plotArea',
]
const AXIS_AFTER_TITLE = ['numFmt', 'majorTickMark', 'minorTickMark', 'tickLblPos', 'spPr', 'txPr', 'crossAx']
const SER_AFTER_LABELS = [
  'trendline',
  'errBars',
  'cat',
  'val',
  'xVal',
  'yVal',
  'smooth',
  'shape',
  'bubbleSize',
  'bubble3D',
  'extLst',
]
const GROUP_AFTER_LABELS = [
  'dropLines',
  'hiLowLines',
  'upDownBars',
  'marker',
  'smooth',
  'gapWidth',
  'overlap',
  'serLines',
  'firstSliceAng',
  'holeSize',
  'bubbleScale',
  'showNegBubbles',
  'axId',
  'extLst',
]

function setChartTitle(doc: XmlDocument, title: string): void {
  const chart = chartElement(doc)
  const deleted = kid(chart, 'autoTitleDeleted')
  if (title === '') {
    remove(kid(chart, 'title'))
    if (deleted) deleted.setAttribute('val', '1')
    else insertBefore(chart, fragment(doc, '<c:autoTitleDeleted val="1"/>'), CHART_AFTER_TITLE.slice(1))
    return
  }
  setTitle(chart, title, titleXml(title), CHART_AFTER_TITLE)
  if (deleted) deleted.setAttribute('val', '0')
}

function setAxisTitle(axis: XmlElement | undefined, title: string, label: string): void {
  if (!axis) throw invalidInput(`this chart has no ${label} to title`)
  if (title === '') remove(kid(axis, 'title'))
  else setTitle(axis, title, axisTitleXml(title), AXIS_AFTER_TITLE)
}

function setLegend(doc: XmlDocument, legend: NonNullable<ChartOptions['legend']>): void {
  const chart = chartElement(doc)
  const existing = kid(chart, 'legend')
  if (legend === 'none') {
    remove(existing)
    return
  }
  const pos = { top: 't', bottom: 'b', left: 'l', right: 'r' }[legend]
  if (!existing) {
    insertBefore(chart, fragment(doc, legendXml('column', legend)), [
      'plotVisOnly',
      'dispBlanksAs',
      'showDLblsOverMax',
      'extLst',
    ])
    return
  }
  const legendPos = kid(existing, 'legendPos')
  if (legendPos) legendPos.setAttribute('val', pos)
  else existing.insertBefore(fragment(doc, `<c:legendPos val="${pos}"/>`)[0]!, existing.firstChild)
}

function setDataLabels(doc: XmlDocument, labels: NonNullable<ChartOptions['dataLabels']>): void {
  for (const group of plotGroups(doc)) {
    const xml = dataLabelsXml(labels)
    for (const ser of kids(group.el, 'ser')) {
      remove(kid(ser, 'dLbls'))
      if (xml) insertBefore(ser, fragment(doc, xml), SER_AFTER_LABELS)
    }
    remove(kid(group.el, 'dLbls'))
    if (xml) insertBefore(group.el, fragment(doc, xml), GROUP_AFTER_LABELS)
  }
}

function setTrendline(doc: XmlDocument, trendline: NonNullable<ChartOptions['trendline']>): void {
  for (const group of plotGroups(doc)) {
    const xml = trendlineXml(group.kind, trendline)
    for (const ser of kids(group.el, 'ser')) {
      for (const old of kids(ser, 'trendline')) remove(old)
      if (xml) insertBefore(ser, fragment(doc, xml), SER_AFTER_LABELS.slice(1))
    }
  }
}

const REBUILD_OPTIONS: (keyof ChartOptions)[] = [
  'grouping',
  'gapWidth',
  'overlap',
  'markers',
  'smooth',
  'lineStyle',
  'markerStyle',
]

/** Rebuilds the plot area from the chart's series (references, caches and colours kept) and the options. */
function rebuildPlotArea(doc: XmlDocument, change: ChartChange, options: ChartOptions): void {
  const chart = chartElement(doc)
  const plotArea = kid(chart, 'plotArea')
  if (!plotArea) throw invalidInput('the chart has no plot area to change')
  const unknown = kids(plotArea).filter(
    (e) => /Chart$/.test(e.localName ?? '') && !((e.localName ?? '') in PLOT_KINDS),
  )
  if (unknown.length > 0)
    throw invalidInput(
      `this chart holds a ${unknown[0]!.localName} group, which update_chart can only retitle; its type and series cannot be changed here`,
    )
  const groups = plotGroups(doc)
  const was = chartKind(groups) as ChartType
  let series: ChartSeries[] = change.series ?? readSeries(groups).map(({ el: _el, ...s }) => s)
  if (change.removeSeries) {
    const drop = new Set<number>()
    for (const which of change.removeSeries) {
      const at =
        typeof which === 'number'
          ? which - 1
          : series.findIndex((s) => s.name.toLowerCase() === which.trim().toLowerCase())
      if (at < 0 || at >= series.length)
        throw invalidInput(
          `the chart has no series ${typeof which === 'number' ? which : `"${which}"`}; its series: ${series.map((s, i) => `${i + 1}: ${s.name}`).join(', ')}`,
        )
      drop.add(at)
    }
    series = series.filter((_, i) => !drop.has(i))
  }
  series = [...series, ...(change.addSeries ?? [])]
  if (series.length === 0)
    throw invalidInput('a chart needs at least one series; delete_chart removes the chart')
  const type = change.type ?? was
  if (change.type && change.type !== 'combo') series = series.map(({ type: _t, ...s }) => s)
  if (type === 'pie' || type === 'doughnut' || type === 'scatter')
    series = series.map(({ secondary: _s, ...s }) => s)
  const before = readSeries(groups)
  series = series.map((s, i) => {
    const old = before.find((b) => b.valuesRef === s.valuesRef && b.shapeXml === s.shapeXml)
    if (s.shapeXml && old && old.type !== seriesKind(type, s, i)) {
      const { shapeXml: _x, ...rest } = s
      return rest
    }
    return s
  })
  const data = { categories: [], categoryNumbers: [], series }
  const problem = chartProblem(type, data, options)
  if (problem) throw invalidInput(problem)
  const layout = kid(plotArea, 'layout')
  const [fresh] = fragment(doc, plotAreaXml(type, data, options))
  if (layout) fresh!.replaceChild(layout, kid(fresh, 'layout')!)
  for (const keep of ['dTable', 'spPr', 'extLst']) {
    const el = kid(plotArea, keep)
    if (el) fresh!.appendChild(el)
  }
  chart.replaceChild(fresh!, plotArea)
}

/** Applies a change to a chart part's XML, rewriting only what changed. */
export function updateChartXml(xml: string, change: ChartChange): string {
  const doc = parseChart(xml)
  const o = change.options
  const rebuild =
    change.type !== undefined ||
    change.series !== undefined ||
    change.addSeries !== undefined ||
    change.removeSeries !== undefined ||
    REBUILD_OPTIONS.some((k) => o[k] !== undefined)
  if (rebuild) {
    const merged: ChartOptions = { ...readOptions(doc) }
    for (const [k, v] of Object.entries(o)) if (v !== undefined) (merged as Record<string, unknown>)[k] = v
    for (const k of ['xAxisTitle', 'yAxisTitle', 'secondaryAxisTitle'] as const)
      if (merged[k] === '') delete merged[k]
    rebuildPlotArea(doc, change, merged)
  } else {
    const groups = plotGroups(doc)
    const type = chartKind(groups) as ChartType
    const series = readSeries(groups)
    const problem = chartProblem(
      type,
      { categories: [], categoryNumbers: [], series },
      {
        ...o,
        grouping: readOptions(doc).grouping,
        secondaryAxisTitle: o.secondaryAxisTitle || undefined,
      },
    )
    if (problem) throw invalidInput(problem)
    const axes = chartAxes(doc)
    if (o.xAxisTitle !== undefined) setAxisTitle(axes.x, o.xAxisTitle, 'category axis')
    if (o.yAxisTitle !== undefined) setAxisTitle(axes.y, o.yAxisTitle, 'value axis')
    if (o.secondaryAxisTitle !== undefined) setAxisTitle(axes.y2, o.secondaryAxisTitle, 'secondary axis')
    if (o.dataLabels !== undefined) setDataLabels(doc, o.dataLabels)
    if (o.trendline !== undefined) setTrendline(doc, o.trendline)
  }
  if (change.title !== undefined) setChartTitle(doc, change.title)
  if (o.legend !== undefined) setLegend(doc, o.legend)
  return serialize(doc)
}

/**
 * Changes a chart of the sheet, one Bureau added in this session or one saved in the workbook (its part is
 * rewritten where it changed; the rest of the part stays as it was). Returns the chart as now stored.
 */
export function updateChart(
  open: OpenWorkbook,
  ws: Worksheet,
  chart: number | string,
  change: ChartChange,
): string[] {
  const picked = pickChart(open, ws, chart)
  const seriesChange = change.series || change.addSeries || change.removeSeries
  if (picked.part && seriesChange && open.rewrites.length > 0)
    throw invalidInput(
      'rows, columns or sheets moved since the last save: save the workbook, then change the series of this chart',
    )
  const xml = picked.pending ? picked.pending.xml : partText(open.original, picked.part!)
  if (xml === undefined) throw invalidInput(`chart ${picked.index + 1} has no chart part`)
  let next: string
  try {
    next = updateChartXml(xml, change)
  } catch (error) {
    if (error instanceof Error && /^not a chart part|has no c:chart/.test(error.message))
      throw invalidInput(`chart ${picked.index + 1} cannot be read: ${error.message}`)
    throw error
  }
  const receipt = describeChartXml(next)
  const doc = parseChart(next)
  const title = titleText(kid(chartElement(doc), 'title'))
  if (picked.pending) {
    picked.pending.xml = next
    picked.pending.title = title
    picked.pending.type = chartKind(plotGroups(doc))
  } else setPartText(open.original, picked.part!, next)
  open.changed(ws)
  return [`chart ${picked.index + 1} of ${picked.total}: ${receipt[0]}`, ...receipt.slice(1)]
}
