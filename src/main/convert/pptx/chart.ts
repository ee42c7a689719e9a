import { renderTable } from '../markdown/table'
import {
  childElements,
  descendants,
  type Element,
  firstDescendant,
  localName,
  parseXml,
  textOf,
} from '../xml/parseXml'

function cachedPoints(reference: Element | undefined): string[] {
  if (!reference) return []
  const points: string[] = []
  for (const point of descendants(reference, 'pt')) {
    const index = Number(point.attribs.idx ?? points.length)
    points[index] = textOf(firstDescendant(point, 'v')).trim()
  }
  return Array.from(points, (value) => value ?? '')
}

function seriesName(series: Element): string {
  const tx = childElements(series).find((child) => localName(child) === 'tx')
  return tx ? (cachedPoints(tx)[0] ?? textOf(firstDescendant(tx, 'v')).trim()) : ''
}

/** A chart's title and, per series, its values by category as a table. */
export function chartMarkdown(xml: string): string {
  const document = parseXml(xml)
  const chart = firstDescendant(document, 'chart')
  if (!chart) return ''
  const titleElement = childElements(chart).find((child) => localName(child) === 'title')
  const title = titleElement ? descendants(titleElement, 't').map(textOf).join('').trim() : ''
  const series = descendants(chart, 'ser')
  const parts = [`### Chart${title ? `: ${title}` : ''}`]
  if (series.length > 0) {
    const categories = cachedPoints(
      childElements(series[0] as Element).find((child) => ['cat', 'xVal'].includes(localName(child))),
    )
    const values = series.map((entry) =>
      cachedPoints(childElements(entry).find((child) => ['val', 'yVal'].includes(localName(child)))),
    )
    const rowCount = Math.max(categories.length, ...values.map((list) => list.length))
    const header = ['Category', ...series.map((entry, index) => seriesName(entry) || `Series ${index + 1}`)]
    const rows = Array.from({ length: rowCount }, (_, row) => [
      categories[row] ?? String(row + 1),
      ...values.map((list) => list[row] ?? ''),
    ])
    parts.push(renderTable([header, ...rows]))
  }
  return parts.join('\n\n')
}
