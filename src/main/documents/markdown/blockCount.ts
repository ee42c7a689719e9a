/**
 * Blocks a document may have. Parsing and building hold the whole tree: 41,000 blocks (1,000
 * sections of 40 paragraphs, about 1,500 PDF pages) peak near 700 MB for a DOCX, 102,500 overflowed
 * the stack and 205,000 took 2.8 GB. Refused up front, before anything is parsed.
 */
export const MAX_BLOCKS = 50_000

const FENCE = /^ {0,3}(`{3,}|~{3,})/
const BLOCK_START = /^ {0,3}(?:#{1,6}(?:\s|$)|[-*+](?:\s|$)|\d{1,9}[.)](?:\s|$)|>|\|)/

/**
 * The lines of the Markdown outside fenced code, one at a time without splitting the whole text; a fence's
 * opening line comes as `fence: true`, the lines inside and its closing line not at all.
 */
function* linesOutsideFences(markdown: string): Generator<{ line: string; fence: boolean }> {
  let fence: string | undefined
  let from = 0
  while (from <= markdown.length) {
    let to = markdown.indexOf('\n', from)
    if (to === -1) to = markdown.length
    const line = markdown.slice(from, to)
    from = to + 1
    const marker = FENCE.exec(line)?.[1]
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined
      continue
    }
    if (marker) fence = marker
    yield { line, fence: Boolean(marker) }
  }
}

/**
 * About how many blocks (paragraphs, headings, list items, quotes, table rows, code blocks) the
 * Markdown holds, counted line by line without parsing: a line starts a block after a blank line
 * or when it starts with a block marker; lines inside fenced code count once for the fence.
 */
export function estimateBlocks(markdown: string): number {
  let blocks = 0
  let previousBlank = true
  for (const { line, fence } of linesOutsideFences(markdown)) {
    if (fence) {
      blocks++
      previousBlank = false
      continue
    }
    const blank = line.trim() === ''
    if (!blank && (previousBlank || BLOCK_START.test(line))) blocks++
    previousBlank = blank
  }
  return blocks
}

/** Quotes and lists nested deeper than this are refused: parsing 5,000 nested quotes took a minute and rendering them overflowed the stack. */
export const MAX_NESTING = 100

const NESTING_MARKER = /^[ \t]*(?:>|[-*+][ \t]|\d{1,9}[.)][ \t])/

/** The deepest nesting of quotes and list items on any line outside fenced code, counted without parsing. */
export function estimateNesting(markdown: string): number {
  let deepest = 0
  for (const { line, fence } of linesOutsideFences(markdown)) {
    if (fence) continue
    let depth = 0
    let rest = line
    for (let found = NESTING_MARKER.exec(rest); found; found = NESTING_MARKER.exec(rest)) {
      depth++
      rest = rest.slice(found[0].length)
      if (depth > MAX_NESTING) break
    }
    const indent = /^[ \t]*/.exec(line)?.[0].replace(/\t/g, '    ').length ?? 0
    if (depth > 0) depth += Math.floor(indent / 2)
    if (depth > deepest) deepest = depth
  }
  return deepest
}
