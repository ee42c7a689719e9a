import type { Worksheet } from 'exceljs'
import { invalidInput } from '../errors'
import { type Parts, partText, readRels, relKind, setPartText, writeRels } from '../ooxml/packageParts'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { chartFrames, chartsInSheet } from './chartInfo'
import type { PendingChart } from './chartPackage'

const ANCHOR =
  /<(?:\w+:)?(?:twoCellAnchor|oneCellAnchor|absoluteAnchor)\b[\s\S]*?<\/(?:\w+:)?(?:twoCellAnchor|oneCellAnchor|absoluteAnchor)>/g

/** Removes the `index`-th chart frame (in the order chartsInSheet lists them) from the kept package. */
function removeSavedChart(parts: Parts, sheetPart: string, index: number): void {
  const drawing = readRels(parts, sheetPart).find((r) => relKind(r.type) === 'drawing')?.part
  if (!drawing) throw new Error('the sheet has no drawing')
  const xml = partText(parts, drawing) ?? ''
  const rels = readRels(parts, drawing)
  let seen = -1
  let removedId: string | undefined
  const next = xml.replace(ANCHOR, (anchor) => {
    const id = /<(?:\w+:)?chart\b[^>]*\bid="([^"]+)"/.exec(anchor)?.[1]
    if (!id || !rels.find((r) => r.id === id)?.part) return anchor
    seen++
    if (seen !== index) return anchor
    removedId = id
    return ''
  })
  if (!removedId) throw new Error(`chart ${index + 1} is not in the drawing`)
  setPartText(parts, drawing, next)
  const stillUsed = new RegExp(`\\bid="${removedId}"`).test(next)
  if (!stillUsed)
    writeRels(
      parts,
      drawing,
      rels.filter((r) => r.id !== removedId),
    )
}

/** A chart of a sheet as a call names it: saved in the package, or added since the last save. */
export interface PickedChart {
  index: number
  total: number
  type: string
  title?: string
  /** The kept chart part, for a saved chart. */
  part?: string
  pending?: PendingChart
}

/**
 * Finds a chart of the sheet: `chart` is its 1-based number in describe_worksheet's list or its title.
 * An unknown number or title is refused with the list of the sheet's charts.
 */
export function pickChart(open: OpenWorkbook, ws: Worksheet, chart: number | string): PickedChart {
  const sheetPart = open.originalSheetParts.get(ws.id)
  const saved = sheetPart ? chartsInSheet(open.original, sheetPart) : []
  const parts = sheetPart ? chartFrames(open.original, sheetPart).map((f) => f.part) : []
  const pending = open.charts.filter((c) => c.sheet === ws.name)
  const all = [
    ...saved.map((c, i) => ({ type: c.type, title: c.title, part: parts[i] })),
    ...pending.map((c) => ({ type: c.type, title: c.title, pending: c })),
  ]
  const list = all.map((c, i) => `${i + 1}: ${c.type}${c.title ? ` "${c.title}"` : ''}`).join(', ')
  if (all.length === 0) throw invalidInput(`sheet "${ws.name}" has no chart`)
  let index: number
  if (typeof chart === 'number') {
    if (!Number.isInteger(chart) || chart < 1 || chart > all.length)
      throw invalidInput(`sheet "${ws.name}" has no chart ${chart}; its charts: ${list}`)
    index = chart - 1
  } else {
    const matches = all.flatMap((c, i) => (c.title?.toLowerCase() === chart.trim().toLowerCase() ? [i] : []))
    if (matches.length !== 1)
      throw invalidInput(
        `${matches.length === 0 ? 'no' : 'more than one'} chart of sheet "${ws.name}" is titled "${chart}"; its charts: ${list}; name one by number`,
      )
    index = matches[0]!
  }
  return { index, total: all.length, ...all[index]! }
}

/** Deletes a chart of the sheet (see pickChart). Returns what was deleted. */
export function deleteChart(open: OpenWorkbook, ws: Worksheet, chart: number | string): string {
  const gone = pickChart(open, ws, chart)
  if (gone.pending) open.charts.splice(open.charts.indexOf(gone.pending), 1)
  else removeSavedChart(open.original, open.originalSheetParts.get(ws.id)!, gone.index)
  open.changed(ws)
  return `deleted ${gone.type} chart${gone.title ? ` "${gone.title}"` : ''} (number ${gone.index + 1} of ${gone.total})`
}
