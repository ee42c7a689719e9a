import type { Anchor } from './anchor'

export interface Chunk {
  /** Position in the document, 0-based (stable for the same Markdown). */
  readonly ordinal: number
  readonly anchor: Anchor
  readonly text: string
  /** Character offsets of the passage in the converted Markdown (the preview shows around them). */
  readonly start: number
  readonly end: number
}

export interface ChunkOptions {
  /** The converter's format: `xlsx`/`xls`/`csv`/`tsv` make `##` sections sheets, `pptx` slides. */
  readonly format: string
  /** Aim for passages of about this many characters (default 1,200); a paragraph is never cut below it. */
  readonly targetChars?: number
}

interface Block {
  readonly text: string
  readonly start: number
  readonly end: number
  readonly anchor: Anchor
  readonly tableHeader?: string
  readonly tableRow?: number
}

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/
const PAGE_MARKER = /^<!--\s*Page\s+(\d+)\s*-->\s*$/
const FENCE = /^\s*(```|~~~)/
const SHEET_FORMATS = new Set(['xlsx', 'xls', 'csv', 'tsv'])

/**
 * Splits the converter's Markdown along its structure: headings (with their path), PDF page markers,
 * sheets (`##` per worksheet) with table row ranges, slides (`## Slide n`). Paragraphs are packed into
 * passages of about `targetChars`; long tables are cut between rows with the header repeated.
 */
export function chunkMarkdown(markdown: string, options: ChunkOptions): Chunk[] {
  const blocks = toBlocks(markdown, options.format)
  return packBlocks(blocks, options.targetChars ?? 1_200, SHEET_FORMATS.has(options.format))
}

function toBlocks(markdown: string, format: string): Block[] {
  const blocks: Block[] = []
  const headings: { level: number; text: string }[] = []
  let page: number | undefined = format === 'pdf' ? 1 : undefined
  let sheet: string | undefined
  let slide: number | undefined
  let inFence = false
  let para: { lines: string[]; start: number; end: number } | undefined
  let table: { header: string; row: number } | undefined
  const anchorNow = (): Anchor => ({
    headings: headings.map((heading) => heading.text),
    ...(page !== undefined ? { page } : {}),
    ...(sheet !== undefined ? { sheet } : {}),
    ...(slide !== undefined ? { slide } : {}),
  })
  const flush = () => {
    if (!para) return
    const text = para.lines.join('\n').trim()
    if (text) blocks.push({ text, start: para.start, end: para.end, anchor: anchorNow() })
    para = undefined
  }
  let offset = 0
  for (const line of markdown.split('\n')) {
    const start = offset
    const end = offset + line.length
    offset = end + 1
    if (FENCE.test(line)) inFence = !inFence
    if (!inFence) {
      const marker = PAGE_MARKER.exec(line)
      if (marker) {
        flush()
        table = undefined
        page = Number(marker[1])
        continue
      }
      const heading = HEADING.exec(line)
      if (heading) {
        flush()
        table = undefined
        const level = heading[1]!.length
        const text = heading[2]!.trim()
        while (headings.length > 0 && headings.at(-1)!.level >= level) headings.pop()
        headings.push({ level, text })
        if (level <= 2 && SHEET_FORMATS.has(format)) sheet = text.replace(/ \(hidden sheet\)$/, '')
        if (level === 2 && format === 'pptx') slide = slideNumber(text) ?? slide
        continue
      }
      if (line.trim() === '') {
        flush()
        table = undefined
        continue
      }
      if (line.trimStart().startsWith('|')) {
        flush()
        if (!table) {
          table = { header: line, row: -1 }
          continue
        }
        table.row++
        if (table.row === 0 && /^\s*\|[\s:|-]+\|\s*$/.test(line)) {
          table.header = `${table.header}\n${line}`
          continue
        }
        if (table.row === 0) table.row = 1
        blocks.push({
          text: line,
          start,
          end,
          anchor: anchorNow(),
          tableHeader: table.header,
          tableRow: table.row,
        })
        continue
      }
    }
    if (!para) para = { lines: [], start, end }
    para.lines.push(line)
    para.end = end
  }
  flush()
  return blocks
}

function slideNumber(heading: string): number | undefined {
  const match = /^Slide (\d+)/.exec(heading)
  return match ? Number(match[1]) : undefined
}

function sameSection(a: Anchor, b: Anchor): boolean {
  return (
    a.page === b.page &&
    a.sheet === b.sheet &&
    a.slide === b.slide &&
    a.headings.length === b.headings.length &&
    a.headings.every((heading, index) => heading === b.headings[index])
  )
}

function packBlocks(blocks: readonly Block[], target: number, isSheet: boolean): Chunk[] {
  const chunks: Chunk[] = []
  let group: Block[] = []
  let size = 0
  const emit = () => {
    if (group.length === 0) return
    chunks.push(toChunk(group, chunks.length, isSheet))
    group = []
    size = 0
  }
  for (const block of blocks) {
    const first = group[0]
    const split =
      first !== undefined &&
      (!sameSection(first.anchor, block.anchor) ||
        first.tableHeader !== block.tableHeader ||
        size + block.text.length > target)
    if (split) emit()
    group.push(block)
    size += block.text.length + 1
  }
  emit()
  return chunks
}

function toChunk(group: readonly Block[], ordinal: number, isSheet: boolean): Chunk {
  const first = group[0]!
  const last = group.at(-1)!
  const rows =
    first.tableRow !== undefined
      ? `${first.tableRow}${last.tableRow !== first.tableRow ? `-${last.tableRow}` : ''}`
      : undefined
  const body = group.map((block) => block.text).join(first.tableHeader ? '\n' : '\n\n')
  const text = first.tableHeader ? `${first.tableHeader}\n${body}` : body
  const anchor: Anchor = rows !== undefined && isSheet ? { ...first.anchor, rows } : first.anchor
  return { ordinal, anchor, text, start: first.start, end: last.end }
}
