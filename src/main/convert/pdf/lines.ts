import type { Line, Segment, TextRun } from './types'

/** A gap wider than this many font sizes separates two segments (table cells, columns). */
const SEGMENT_GAP_EM = 1.0
/** A gap wider than this many font sizes gets a space when runs are joined. */
const SPACE_GAP_EM = 0.12

function joinRuns(runs: TextRun[]): string {
  let text = ''
  let previous: TextRun | undefined
  for (const run of runs) {
    if (previous) {
      const gap = run.x - (previous.x + previous.width)
      const needsSpace =
        gap > SPACE_GAP_EM * Math.min(run.size, previous.size) &&
        !/\s/.test(text.at(-1) ?? '') &&
        !/^\s/.test(run.text)
      if (needsSpace) text += ' '
    }
    text += run.text
    previous = run
  }
  return text.replace(/\s+/g, ' ').trim()
}

function mostlyBold(runs: TextRun[]): boolean {
  const total = runs.reduce((sum, run) => sum + run.text.trim().length, 0)
  const bold = runs.filter((run) => run.bold).reduce((sum, run) => sum + run.text.trim().length, 0)
  return total > 0 && bold / total >= 0.9
}

function dominantSize(runs: TextRun[]): number {
  const weight = new Map<number, number>()
  for (const run of runs) {
    const size = Math.round(run.size * 2) / 2
    weight.set(size, (weight.get(size) ?? 0) + run.text.length)
  }
  return [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0
}

function toSegment(runs: TextRun[]): Segment {
  const last = runs[runs.length - 1] as TextRun
  return {
    text: joinRuns(runs),
    x0: (runs[0] as TextRun).x,
    x1: last.x + last.width,
    size: dominantSize(runs),
    bold: mostlyBold(runs),
  }
}

function splitSegments(runs: TextRun[]): Segment[] {
  const segments: Segment[] = []
  let current: TextRun[] = []
  for (const run of runs) {
    const previous = current[current.length - 1]
    if (
      previous &&
      run.x - (previous.x + previous.width) > SEGMENT_GAP_EM * Math.max(run.size, previous.size)
    ) {
      segments.push(toSegment(current))
      current = []
    }
    current.push(run)
  }
  if (current.length > 0) segments.push(toSegment(current))
  return segments.filter((segment) => segment.text.length > 0)
}

const markerOnly =
  /^(\d{1,3}[.)]|\d{1,3}(\.\d{1,3})+\.?|\.\d{1,3}|\([a-zA-Z\d]{1,3}\)|[a-z][.)]|[•◦▪▫●○■□‣⁃∙·\-–*])$/

/** A list or section marker set apart by a tab stop ("1.      INTENT") belongs to the text after it. */
function mergeMarkers(segments: Segment[]): Segment[] {
  const [first, second, ...rest] = segments
  if (!first || !second || !markerOnly.test(first.text) || rest.length > 0) return segments
  return [
    {
      text: `${first.text} ${second.text}`,
      x0: first.x0,
      x1: second.x1,
      size: second.size,
      bold: first.bold && second.bold,
    },
  ]
}

/**
 * Groups runs into lines by baseline (a run joins a line whose baseline is within half its size),
 * then splits each line into segments at wide gaps.
 */
export function buildLines(runs: TextRun[]): Line[] {
  const visible = runs.filter((run) => run.text.trim().length > 0)
  const sorted = [...visible].sort((a, b) => a.y - b.y || a.x - b.x)
  const groups: TextRun[][] = []
  for (const run of sorted) {
    const group = groups[groups.length - 1]
    const anchor = group?.[0]
    // max(): a superscript (smaller, raised) still joins the line it belongs to.
    if (group && anchor && Math.abs(run.y - anchor.y) <= Math.max(run.size, anchor.size) * 0.5)
      group.push(run)
    else groups.push([run])
  }
  return groups
    .map((group) => {
      const ordered = group.sort((a, b) => a.x - b.x)
      const segments = mergeMarkers(splitSegments(ordered))
      return {
        y: Math.max(...ordered.map((run) => run.y)),
        x0: Math.min(...segments.map((segment) => segment.x0)),
        x1: Math.max(...segments.map((segment) => segment.x1)),
        size: dominantSize(ordered),
        bold: mostlyBold(ordered),
        segments,
        text: segments.map((segment) => segment.text).join(' '),
      }
    })
    .filter((line) => line.segments.length > 0)
}
