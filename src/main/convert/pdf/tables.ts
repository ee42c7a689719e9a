import type { Line, Segment } from './types'

export interface TableRegion {
  start: number
  /** Exclusive. */
  end: number
  rows: string[][]
}

export interface ColumnSplit {
  start: number
  end: number
  columns: Line[][]
}

interface Interval {
  x0: number
  x1: number
}

const MAX_COLUMNS = 16

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/**
 * Column bands, built greedily from the fullest lines down: a segment that would bridge two
 * existing bands is a spanning cell (a group header) and does not shape the columns.
 */
function columnBands(lines: Line[]): Interval[] {
  const multi = lines.filter((line) => line.segments.length >= 2)
  const ordered = [...(multi.length > 0 ? multi : lines)].sort(
    (a, b) => b.segments.length - a.segments.length,
  )
  const bands: Interval[] = []
  for (const line of ordered) {
    for (const segment of line.segments) {
      const touched = bands.filter((band) => segment.x0 <= band.x1 + 1 && segment.x1 >= band.x0 - 1)
      if (touched.length >= 2) continue
      const band = touched[0]
      if (band) {
        band.x0 = Math.min(band.x0, segment.x0)
        band.x1 = Math.max(band.x1, segment.x1)
      } else {
        bands.push({ x0: segment.x0, x1: segment.x1 })
      }
    }
  }
  bands.sort((a, b) => a.x0 - b.x0)
  // Widening can make neighbours overlap; merge those.
  const merged: Interval[] = []
  for (const band of bands) {
    const last = merged[merged.length - 1]
    if (last && band.x0 <= last.x1) last.x1 = Math.max(last.x1, band.x1)
    else merged.push({ ...band })
  }
  return merged
}

function bandIndex(segment: Segment, bands: Interval[]): number {
  let best = 0
  let bestOverlap = -Infinity
  for (const [index, band] of bands.entries()) {
    const overlap = Math.min(segment.x1, band.x1) - Math.max(segment.x0, band.x0)
    const startsInside = segment.x0 >= band.x0 - 2 && segment.x0 <= band.x1
    const score = startsInside ? overlap + 1e6 : overlap
    if (score > bestOverlap) {
      bestOverlap = score
      best = index
    }
  }
  return best
}

function toRows(lines: Line[], bands: Interval[]): string[][] {
  return lines.map((line) => {
    const row = Array.from({ length: bands.length }, () => '')
    for (const segment of line.segments) {
      const index = bandIndex(segment, bands)
      row[index] = row[index] ? `${row[index]} ${segment.text}` : segment.text
    }
    return row
  })
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length
}

function isProse(lines: Line[]): boolean {
  const segments = lines.flatMap((line) => line.segments)
  const long = segments.filter((segment) => wordCount(segment.text) >= 7).length
  return long > segments.length * 0.5
}

/** A table-like run of lines: consecutive lines with two or more segments, allowing sparse rows. */
function runEnd(lines: Line[], start: number): number {
  let end = start + 1
  while (end < lines.length) {
    const line = lines[end] as Line
    const previous = lines[end - 1] as Line
    if (line.table) break
    const gap = line.y - previous.y
    if (gap > Math.max(3.2 * Math.max(line.size, previous.size), 0)) break
    if (line.segments.length >= 2) {
      end++
      continue
    }
    // A one-cell row continues the table only if more tabular rows follow right after it;
    // a bold one is a caption bar that starts a new table.
    const next = lines[end + 1]
    if (
      !line.bold &&
      next &&
      next.segments.length >= 2 &&
      next.y - line.y <= 3.2 * Math.max(next.size, line.size)
    ) {
      end++
      continue
    }
    break
  }
  return end
}

export interface LayoutRegions {
  tables: TableRegion[]
  columns: ColumnSplit[]
}

/**
 * Finds tables rebuilt from aligned text: runs of multi-segment lines whose segments fall into
 * consistent column bands. Runs of long prose segments are side-by-side text columns instead.
 */
/** Lines beside a two-column run that sit wholly inside one column (a column's first or last lines). */
function fitsOneBand(line: Line, bands: Interval[]): boolean {
  return (
    line.segments.length === 1 &&
    !line.table &&
    bands.some((band) => line.x0 >= band.x0 - 4 && line.x1 <= band.x1 + 4)
  )
}

function splitColumns(lines: Line[], bands: Interval[]): Line[][] {
  const split: Line[][] = bands.map(() => [])
  for (const line of lines) {
    for (const segment of line.segments) {
      split[bandIndex(segment, bands)]?.push({
        ...line,
        x0: segment.x0,
        x1: segment.x1,
        segments: [segment],
        text: segment.text,
      })
    }
  }
  return split
}

function isTable(run: Line[], bands: Interval[]): string[][] | undefined {
  const multi = run.filter((line) => line.segments.length >= 2)
  if (multi.length < 2 || bands.length < 2 || bands.length > MAX_COLUMNS || isProse(run)) return undefined
  const rows = toRows(run, bands)
  const filledRows = rows.filter((row) => row.filter(Boolean).length >= 2).length
  const cellLengths = rows
    .flat()
    .filter(Boolean)
    .map((cell) => cell.length)
  return filledRows >= 2 && median(cellLengths) <= 40 ? rows : undefined
}

export function findRegions(lines: Line[]): LayoutRegions {
  const tables: TableRegion[] = []
  const columns: ColumnSplit[] = []
  let index = 0
  let floor = 0
  while (index < lines.length) {
    if ((lines[index]?.segments.length ?? 0) < 2) {
      index++
      continue
    }
    let end = runEnd(lines, index)
    const run = lines.slice(index, end)
    const bands = columnBands(run)
    const rows = isTable(run, bands)
    if (rows) {
      tables.push({ start: index, end, rows })
    } else if (bands.length === 2 && run.filter((line) => line.segments.length >= 2).length >= 3) {
      // Side-by-side text: read the left column to its end, then the right one.
      let start = index
      while (start > floor && fitsOneBand(lines[start - 1] as Line, bands)) start--
      while (end < lines.length && fitsOneBand(lines[end] as Line, bands)) end++
      columns.push({ start, end, columns: splitColumns(lines.slice(start, end), bands) })
    }
    index = end
    floor = end
  }
  return { tables, columns }
}
