import { cellName } from '../cells/address'
import { decodeXml, type Parts, partText, readRels, relKind } from '../ooxml/packageParts'

export interface ChartInfo {
  type: string
  title?: string
  /** Top-left cell of the chart's frame. */
  anchor?: string
}

function chartType(xml: string): string {
  const kinds = new Set(
    [...xml.matchAll(/<(?:\w+:)?(\w+?)(?:3D)?Chart>/g)].map((m) =>
      m[1] === 'bar' ? 'bar' : m[1] === 'ofPie' ? 'pie' : m[1],
    ),
  )
  if (kinds.size > 1) return 'combo'
  const plot = /<(?:\w+:)?(\w+?)(3D)?Chart\b/.exec(xml.replace(/<(?:\w+:)?chart\b[^S]/, ''))
  const kind = plot?.[1] ?? 'unknown'
  if (kind === 'bar') return /<(?:\w+:)?barDir\s+val="bar"/.test(xml) ? 'bar' : 'column'
  return kind
}

function chartTitle(xml: string): string | undefined {
  const title = /<(?:\w+:)?title>([\s\S]*?)<\/(?:\w+:)?title>/.exec(xml)?.[1]
  if (!title) return undefined
  const text = [...title.matchAll(/<(?:\w+:)?(?:t|v)>([^<]*)<\//g)].map((m) => decodeXml(m[1]!)).join('')
  return text || undefined
}

/** The chart parts of a sheet's drawing with their frames, in drawing order. */
export function chartFrames(parts: Parts, sheetPart: string): { part: string; frame: string }[] {
  const drawing = readRels(parts, sheetPart).find((r) => relKind(r.type) === 'drawing')?.part
  if (!drawing) return []
  const xml = partText(parts, drawing) ?? ''
  const rels = readRels(parts, drawing)
  const out: { part: string; frame: string }[] = []
  for (const anchor of xml.matchAll(
    /<(?:\w+:)?(?:twoCellAnchor|oneCellAnchor|absoluteAnchor)\b[\s\S]*?<\/(?:\w+:)?(?:twoCellAnchor|oneCellAnchor|absoluteAnchor)>/g,
  )) {
    const id = /<(?:\w+:)?chart\b[^>]*\bid="([^"]+)"/.exec(anchor[0])?.[1]
    const part = id ? rels.find((r) => r.id === id)?.part : undefined
    if (part) out.push({ part, frame: anchor[0] })
  }
  return out
}

/** Charts in a sheet's drawing part, read from the package. */
export function chartsInSheet(parts: Parts, sheetPart: string): ChartInfo[] {
  const out: ChartInfo[] = []
  for (const { part, frame } of chartFrames(parts, sheetPart)) {
    const chartXml = partText(parts, part) ?? ''
    const col = /<(?:\w+:)?from>\s*<(?:\w+:)?col>(\d+)</.exec(frame)?.[1]
    const row = /<(?:\w+:)?row>(\d+)</.exec(frame)?.[1]
    out.push({
      type: chartType(chartXml),
      title: chartTitle(chartXml),
      anchor: col !== undefined && row !== undefined ? cellName(Number(row) + 1, Number(col) + 1) : undefined,
    })
  }
  return out
}
