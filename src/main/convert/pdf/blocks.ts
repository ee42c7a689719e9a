import { renderTable } from '../markdown/table'
import { type ColumnSplit, findRegions, type TableRegion } from './tables'
import type { Line } from './types'

export interface TypeScale {
  body: number
  /** Font sizes that make headings, largest first: index 0 is `#`. */
  headings: number[]
}

const bullet = /^([•◦▪▫●○■□‣⁃∙·\-–*])\s+(.*)$/
const numbered = /^((\d{1,2})[.)]|\(\d{1,2}\)|[a-z][.)]|\([a-z]\))\s+(.*)$/

/** Body size = the size most characters use; larger sizes seen on short lines are heading levels. */
export function typeScale(lines: Line[]): TypeScale {
  const weight = new Map<number, number>()
  for (const line of lines) weight.set(line.size, (weight.get(line.size) ?? 0) + line.text.length)
  const body = [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10
  const headings = [
    ...new Set(
      lines.filter((line) => line.size >= body * 1.2 && line.text.length <= 150).map((line) => line.size),
    ),
  ]
    .sort((a, b) => b - a)
    .slice(0, 3)
  return { body, headings }
}

function escapeLine(text: string): string {
  return text.replace(/^(#{1,6}\s|>|[-+*]\s|\d+[.)]\s)/, '\\$1')
}

function headingLevel(line: Line, next: Line | undefined, scale: TypeScale): number | undefined {
  const text = line.text
  if (text.length > 150 || !/\p{L}/u.test(text) || line.segments.length > 1) return undefined
  const sizeLevel = scale.headings.indexOf(line.size)
  if (sizeLevel >= 0) return sizeLevel + 1
  if (!line.bold || line.size < scale.body * 0.95 || text.length > 80 || /[.,;]$/.test(text)) return undefined
  // A bold line followed closely by more bold text is a bold paragraph, not a heading.
  if (next?.bold && next.y - line.y <= 1.5 * line.size && next.segments.length === 1) return undefined
  return Math.min(scale.headings.length + 1, 4)
}

interface Paragraph {
  kind: 'paragraph' | 'item'
  marker: string
  x0: number
  x1: number
  last: Line
  text: string
}

function joinText(left: string, right: string): string {
  // Keep a line-end hyphen but join without a space: "multi-\nagent" -> "multi-agent". Only the end of
  // the growing paragraph is tested (a letter is at most two code units), or every join rescans it.
  if (/\p{L}-$/u.test(left.slice(-3)) && /^\p{Ll}/u.test(right)) return left + right
  return `${left} ${right}`
}

function continues(paragraph: Paragraph, line: Line, rightMargin: number): boolean {
  const previous = paragraph.last
  if (Math.abs(line.size - previous.size) > 0.6) return false
  if (line.y - previous.y > 1.7 * line.size) return false
  // Only a line that ran to (near) the right margin wrapped; a short one ended its paragraph.
  const left = Math.min(paragraph.x0, line.x0)
  if (previous.x1 < left + (rightMargin - left) * 0.75) return false
  // Wrapped prose has full lines; short label lines (receipts, forms) each stand alone.
  if (previous.text.split(/\s+/).length < 5) return false
  if (paragraph.kind === 'item') return line.x0 >= paragraph.x0 - 2
  // Hanging indents (".1   text" then text aligned after the marker) still continue.
  return line.x0 > paragraph.x0 - 4 * line.size && line.x0 < paragraph.x0 + 6 * line.size
}

function renderParagraph(paragraph: Paragraph): string {
  return paragraph.kind === 'item' ? `${paragraph.marker} ${paragraph.text}` : escapeLine(paragraph.text)
}

function startParagraph(line: Line): Paragraph {
  const bulletMatch = bullet.exec(line.text)
  if (bulletMatch)
    return { kind: 'item', marker: '*', x0: line.x0, x1: line.x1, last: line, text: bulletMatch[2] ?? '' }
  const numberMatch = numbered.exec(line.text)
  if (numberMatch && line.text.length > (numberMatch[1]?.length ?? 0) + 1) {
    const marker = numberMatch[2] ? `${numberMatch[2]}.` : `* ${numberMatch[1]}`
    return { kind: 'item', marker, x0: line.x0, x1: line.x1, last: line, text: numberMatch[3] ?? '' }
  }
  return { kind: 'paragraph', marker: '', x0: line.x0, x1: line.x1, last: line, text: line.text }
}

function flowText(lines: Line[], scale: TypeScale, rightMargin: number, out: string[]): void {
  let paragraph: Paragraph | undefined
  const flush = () => {
    if (paragraph) out.push(renderParagraph(paragraph))
    paragraph = undefined
  }
  for (const [index, line] of lines.entries()) {
    if (line.table) {
      flush()
      out.push(renderTable(line.table))
      continue
    }
    const level = headingLevel(line, lines[index + 1], scale)
    if (level) {
      flush()
      out.push(`${'#'.repeat(level)} ${line.text}`)
      continue
    }
    const isNewItem = bullet.test(line.text) || numbered.test(line.text)
    if (paragraph && line.segments.length === 1 && !isNewItem && continues(paragraph, line, rightMargin)) {
      paragraph.text = joinText(paragraph.text, line.text)
      paragraph.x1 = Math.max(paragraph.x1, line.x1)
      paragraph.last = line
      continue
    }
    flush()
    if (line.segments.length > 1) {
      // Side-by-side fields that did not form a table stay on one line, gaps kept visible.
      out.push(escapeLine(line.segments.map((segment) => segment.text).join('   ')))
      continue
    }
    paragraph = startParagraph(line)
  }
  flush()
}

/** Where body text ends on the right: the 90th percentile of line ends. */
function rightMargin(lines: Line[]): number {
  const ends = lines.map((line) => line.x1).sort((a, b) => a - b)
  return ends[Math.floor(ends.length * 0.9)] ?? 0
}

function tableMarkdown(table: TableRegion): string {
  return renderTable(table.rows)
}

/** One page's lines as Markdown blocks: headings, paragraphs, lists, tables, split text columns. */
export function pageMarkdown(lines: Line[], scale: TypeScale): string {
  const { tables, columns } = findRegions(lines)
  const regions: (TableRegion | ColumnSplit)[] = [...tables, ...columns].sort((a, b) => a.start - b.start)
  const out: string[] = []
  const margin = rightMargin(lines)
  let cursor = 0
  for (const region of regions) {
    flowText(lines.slice(cursor, region.start), scale, margin, out)
    if ('rows' in region) out.push(tableMarkdown(region))
    else for (const column of region.columns) flowText(column, scale, rightMargin(column), out)
    cursor = region.end
  }
  flowText(lines.slice(cursor), scale, margin, out)
  return out.join('\n\n')
}
