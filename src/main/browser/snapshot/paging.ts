/** Default size of one page of Markdown handed to the model. */
export const PAGE_CHARS = 12_000

/** Splits Markdown into pages at block boundaries (a single huge block is cut at a line or a space). */
export function paginate(markdown: string, pageChars = PAGE_CHARS): string[] {
  if (markdown.length <= pageChars) return [markdown]
  const pages: string[] = []
  let current = ''
  const flush = () => {
    if (current.trim()) pages.push(current.trim())
    current = ''
  }
  for (const block of markdown.split(/\n\n/)) {
    let rest = block
    while (rest.length > pageChars) {
      flush()
      let cut = rest.lastIndexOf('\n', pageChars)
      if (cut < pageChars / 2) cut = rest.lastIndexOf(' ', pageChars)
      if (cut < pageChars / 2) cut = pageChars
      pages.push(rest.slice(0, cut).trim())
      rest = rest.slice(cut)
    }
    if (current.length + rest.length + 2 > pageChars) flush()
    current += current ? `\n\n${rest}` : rest
  }
  flush()
  return pages.length > 0 ? pages : ['']
}

interface Block {
  /** The heading the block sits under ('' before the first heading). */
  heading: string
  text: string
  order: number
}

/** Paragraph-sized blocks, each knowing its heading, so a query returns just the parts that match. */
function blocks(markdown: string): Block[] {
  const out: Block[] = []
  let heading = ''
  for (const text of markdown.split(/\n\n+/)) {
    const trimmed = text.trim()
    if (!trimmed) continue
    if (/^#{1,6} /.test(trimmed)) heading = trimmed.split('\n')[0] ?? trimmed
    out.push({ heading, text: trimmed, order: out.length })
  }
  return out
}

function words(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1)
}

/**
 * The paragraphs (lists, tables...) that contain the query's words, best first by how many words
 * they contain, shown in page order under their headings within `maxChars`.
 */
export function queryMarkdown(
  markdown: string,
  query: string,
  maxChars = PAGE_CHARS,
): { text: string; matches: number } {
  const terms = words(query)
  if (terms.length === 0) return { text: '', matches: 0 }
  const scored = blocks(markdown)
    .map((block) => {
      const lower = block.text.toLowerCase()
      return { block, hits: terms.filter((term) => lower.includes(term)).length }
    })
    .filter((s) => s.hits > 0)
    .sort((a, b) => b.hits - a.hits || a.block.order - b.block.order)
  const chosen: Block[] = []
  let size = 0
  for (const { block } of scored) {
    if (size + block.text.length > maxChars && chosen.length > 0) continue
    chosen.push(block)
    size += block.text.length + block.heading.length + 4
  }
  chosen.sort((a, b) => a.order - b.order)
  const parts: string[] = []
  let shownHeading = ''
  for (const block of chosen) {
    if (block.heading && block.heading !== shownHeading && block.text !== block.heading)
      parts.push(block.heading)
    shownHeading = block.heading
    parts.push(block.text)
  }
  return { text: parts.join('\n\n'), matches: scored.length }
}
