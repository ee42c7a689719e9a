import type { PreviewChart } from '../../../shared/ipc'
import { decodeXml, elements, firstElement, runText } from './xml'

// A DrawingML chart part read for drawing: its kind, grouping and the values cached in the part (what
// Excel and LibreOffice show before they recalculate). No reference is followed and nothing is evaluated.

/** Points per series and series per chart drawn at most; a larger cache is cut. */
const MAX_POINTS = 2_000
const MAX_SERIES = 50

const PLOTS: Record<string, PreviewChart['type']> = {
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

function cachePoints(xml: string): (string | undefined)[] {
  const cache = firstElement(xml, 'numCache') ?? firstElement(xml, 'strCache') ?? firstElement(xml, 'strLit')
  const literal = cache ?? firstElement(xml, 'numLit')
  if (!literal) return []
  const count = Math.min(Number(firstElement(literal.inner, 'ptCount')?.attrs.val ?? 0) || 0, MAX_POINTS)
  const out: (string | undefined)[] = Array.from({ length: count })
  for (const pt of elements(literal.inner, 'pt')) {
    const index = Number(pt.attrs.idx)
    if (!Number.isInteger(index) || index < 0 || index >= MAX_POINTS) continue
    const v = firstElement(pt.inner, 'v')?.inner
    out[index] = v === undefined ? undefined : decodeXml(v)
    if (index >= out.length) out.length = index + 1
  }
  return out
}

const numbers = (points: (string | undefined)[]) =>
  Array.from(points, (p) => {
    const value = p === undefined || p === '' ? Number.NaN : Number(p)
    return Number.isFinite(value) ? value : null
  })

function colorOf(xml: string): string | undefined {
  const fill = firstElement(firstElement(xml, 'spPr')?.inner ?? '', 'solidFill')
  const rgb = fill && firstElement(fill.inner, 'srgbClr')?.attrs.val
  return rgb && /^[0-9a-fA-F]{6}$/.test(rgb) ? `#${rgb.toLowerCase()}` : undefined
}

/** A title's or series name's text: rich text runs, or the cached value of a referenced cell. */
function titleText(xml: string | undefined): string | undefined {
  if (!xml) return undefined
  const v = firstElement(xml, 'v')
  const text = (runText(xml) || (v ? decodeXml(v.inner) : '')).trim()
  return text || undefined
}

/** The first chart group of a chart part (the one most charts have), or undefined for kinds not drawn. */
export function readChart(xml: string): { title: string | undefined; chart: PreviewChart | undefined } {
  const chartElement = firstElement(xml, 'chart')?.inner ?? ''
  const plotStart = chartElement.search(/<(?:\w+:)?plotArea[\s>]/)
  const beforePlot = plotStart < 0 ? chartElement : chartElement.slice(0, plotStart)
  const title = titleText(firstElement(beforePlot, 'title')?.inner)
  const plotArea = firstElement(chartElement, 'plotArea')?.inner ?? ''
  let found: { kind: PreviewChart['type']; inner: string } | undefined
  for (const [name, kind] of Object.entries(PLOTS)) {
    const element = firstElement(plotArea, name)
    if (element && (!found || plotArea.indexOf(element.inner) < plotArea.indexOf(found.inner)))
      found = { kind, inner: element.inner }
  }
  if (!found) return { title, chart: undefined }
  let type = found.kind
  if (type === 'column' && firstElement(found.inner, 'barDir')?.attrs.val === 'bar') type = 'bar'
  const groupingValue = firstElement(found.inner, 'grouping')?.attrs.val
  const grouping =
    groupingValue === 'stacked' || groupingValue === 'percentStacked' || groupingValue === 'clustered'
      ? groupingValue
      : groupingValue === 'standard'
        ? 'standard'
        : undefined

  let categories: string[] = []
  const series: PreviewChart['series'] = []
  // A combo's other groups: their series carry their own kind and, on other axes, the secondary flag.
  const axisIds = (inner: string) => [...elements(inner, 'axId')].map((a) => a.attrs.val).join(' ')
  const primaryAxes = axisIds(found.inner)
  const others: { kind: 'bar' | 'column' | 'line' | 'area'; inner: string; secondary: boolean }[] = []
  if (type === 'column' || type === 'bar' || type === 'line' || type === 'area')
    for (const [name, kind] of Object.entries(PLOTS))
      for (const element of elements(plotArea, name)) {
        if (element.inner === found.inner) continue
        if (kind !== 'column' && kind !== 'line' && kind !== 'area') continue
        const drawn =
          kind === 'column' && firstElement(element.inner, 'barDir')?.attrs.val === 'bar' ? 'bar' : kind
        others.push({ kind: drawn, inner: element.inner, secondary: axisIds(element.inner) !== primaryAxes })
      }
  for (const group of others)
    for (const ser of elements(group.inner, 'ser')) {
      if (series.length >= MAX_SERIES) break
      const name = titleText(firstElement(ser.inner, 'tx')?.inner) ?? `Series ${series.length + 1}`
      const values = numbers(cachePoints(firstElement(ser.inner, 'val')?.inner ?? ''))
      const color = colorOf(ser.inner)
      series.push({
        name,
        values,
        type: group.kind,
        ...(group.secondary ? { secondary: true } : {}),
        ...(color ? { color } : {}),
      })
    }
  const combo = series.length
  for (const ser of elements(found.inner, 'ser')) {
    if (series.length >= MAX_SERIES) break
    const name = titleText(firstElement(ser.inner, 'tx')?.inner) ?? `Series ${series.length + 1}`
    const color = colorOf(ser.inner)
    if (type === 'scatter') {
      const xPoints = cachePoints(firstElement(ser.inner, 'xVal')?.inner ?? '')
      const values = numbers(cachePoints(firstElement(ser.inner, 'yVal')?.inner ?? ''))
      const x = numbers(xPoints)
      if (categories.length === 0) categories = xPoints.map((p) => p ?? '')
      series.push({ name, values, x, ...(color ? { color } : {}) })
    } else {
      const catPoints = cachePoints(firstElement(ser.inner, 'cat')?.inner ?? '')
      const values = numbers(cachePoints(firstElement(ser.inner, 'val')?.inner ?? ''))
      if (categories.length === 0) categories = catPoints.map((p) => p ?? '')
      series.push({ name, values, ...(color ? { color } : {}) })
    }
  }
  // The first group's series come first, as the chart lists them.
  if (combo > 0) series.push(...series.splice(0, combo))
  const longest = Math.max(0, ...series.map((s) => s.values.length))
  if (categories.length < longest)
    categories = Array.from({ length: longest }, (_, i) => categories[i] ?? String(i + 1))

  const axisTitle = (axis: string) => {
    const element = firstElement(plotArea, axis)
    return titleText(firstElement(element?.inner ?? '', 'title')?.inner)
  }
  const chart: PreviewChart = { type, categories, series }
  if (grouping) chart.grouping = grouping
  const xTitle = type === 'scatter' ? axisTitle('valAx') : axisTitle('catAx')
  const valueAxes = [...elements(plotArea, 'valAx')]
  const yTitle = titleText(
    firstElement((type === 'scatter' ? valueAxes[1] : valueAxes[0])?.inner ?? '', 'title')?.inner,
  )
  if (xTitle) chart.xTitle = xTitle
  if (yTitle) chart.yTitle = yTitle
  return { title, chart }
}
