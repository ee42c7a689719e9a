import { type SheetMove, shiftIndex } from '../ooxml/anchorShift'
import {
  declareContentType,
  freePartName,
  nextRelId,
  type Parts,
  partText,
  readRels,
  relativeTarget,
  relKind,
  setPartText,
  writeRels,
} from '../ooxml/packageParts'
import { addNamespaces, insertElements, rootNamespaces } from '../ooxml/sheetXml'
import { type RefRewrite, rewriteChartXml } from './chartRefs'
import { anchorXml, type ChartAnchor, EMPTY_DRAWING } from './chartXml'

export interface PendingChart {
  sheet: string
  type: string
  title?: string
  anchor: ChartAnchor
  /** The chart part, ready to write. */
  xml: string
  /** How many reference rewrites existed when the chart was made (only later ones apply to it). */
  rewritesBefore: number
  /** How many row/column moves its sheet had when the chart was made. */
  movesBefore: number
}

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const DRAWING_TYPE = 'application/vnd.openxmlformats-officedocument.drawing+xml'
const CHART_TYPE = 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml'

/** Finds (or creates) the sheet's drawing part in `out`. */
function drawingFor(out: Parts, sheetPart: string): string {
  const rels = readRels(out, sheetPart)
  const existing = rels.find((r) => relKind(r.type) === 'drawing')?.part
  if (existing && out[existing]) return existing
  const drawing = freePartName(out, 'xl/drawings/drawing1.xml')
  setPartText(out, drawing, EMPTY_DRAWING)
  declareContentType(out, drawing, DRAWING_TYPE)
  const id = nextRelId(rels)
  rels.push({ id, type: `${REL}/drawing`, target: relativeTarget(sheetPart, drawing), external: false })
  writeRels(out, sheetPart, rels)
  let sheetXml = partText(out, sheetPart) ?? ''
  sheetXml = addNamespaces(sheetXml, ' r:id=""', new Map([['r', REL]]))
  setPartText(out, sheetPart, insertElements(sheetXml, [{ name: 'drawing', xml: `<drawing r:id="${id}"/>` }]))
  return drawing
}

/** Writes chart parts and anchors them in the sheet's drawing. */
export function addChartsToSheet(
  out: Parts,
  sheetPart: string,
  charts: PendingChart[],
  rewrites: readonly RefRewrite[],
  moves: readonly SheetMove[],
): void {
  const drawing = drawingFor(out, sheetPart)
  const rels = readRels(out, drawing)
  let xml = partText(out, drawing) ?? EMPTY_DRAWING
  xml = addNamespaces(
    xml,
    '<xdr:x a:x="" r:id=""/>',
    new Map([
      ['xdr', 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing'],
      ['a', 'http://schemas.openxmlformats.org/drawingml/2006/main'],
      ['r', REL],
    ]),
  )
  const prefix = [...rootNamespaces(xml)].find(([, uri]) => uri.endsWith('/spreadsheetDrawing'))?.[0] ?? 'xdr'
  let nextId =
    Math.max(1, ...[...xml.matchAll(/<(?:\w+:)?cNvPr\b[^>]*\bid="(\d+)"/g)].map((m) => Number(m[1]))) + 1
  const anchors: string[] = []
  for (const chart of charts) {
    const part = freePartName(out, 'xl/charts/chart1.xml')
    setPartText(out, part, rewriteChartXml(chart.xml, rewrites.slice(chart.rewritesBefore)))
    declareContentType(out, part, CHART_TYPE)
    const id = nextRelId(rels)
    rels.push({ id, type: `${REL}/chart`, target: relativeTarget(drawing, part), external: false })
    const n = nextId++
    const later = moves.slice(chart.movesBefore)
    const from = {
      col: shiftIndex(chart.anchor.col, 'col', later),
      row: shiftIndex(chart.anchor.row, 'row', later),
    }
    const anchor = { ...chart.anchor, ...from }
    anchors.push(
      anchorXml(anchor, id, n, chart.title || `Chart ${n}`).replace(/xdr:/g, prefix ? `${prefix}:` : ''),
    )
  }
  xml = xml.replace(/<\/([\w]+:)?wsDr>\s*$/, (end) => `${anchors.join('')}${end}`)
  setPartText(out, drawing, xml)
  writeRels(out, drawing, rels)
}
