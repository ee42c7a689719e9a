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

interface Section {
  heading: string
  text: string
  order: number
}

function sections(markdown: string): Section[] {
  const out: Section[] = []
  let heading = ''
  let lines: string[] = []
  const push = () => {
    const text = lines.join('\n').trim()
    if (text) out.push({ heading, text, order: out.length })
    lines = []
  }
  for (const line of markdown.split('\n')) {
    if (/^#{1,6} /.test(line)) {
      push()
      heading = line
    }
    lines.push(line)
  }
  push()
  // Long sections are split into paragraphs so a query returns the part that matches.
  return out
    .flatMap((section) =>
      section.text.length <= 3_000
        ? [section]
        : section.text.split(/\n\n/).map((text, i) => ({
            heading: section.heading,
            text: i === 0 || !section.heading ? text : `${section.heading} (continued)\n\n${text}`,
            order: 0,
          })),
    )
    .map((section, order) => ({ ...section, order }))
}

function words(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1)
}

/**
 * The sections (heading blocks, or paragraphs of long ones) that contain the query's words, best
 * first by how many words they contain, then shown in page order within `maxChars`.
 */
export function queryMarkdown(
  markdown: string,
  query: string,
  maxChars = PAGE_CHARS,
): { text: string; matches: number } {
  const terms = words(query)
  if (terms.length === 0) return { text: '', matches: 0 }
  const scored = sections(markdown)
    .map((section) => {
      const lower = section.text.toLowerCase()
      const hits = terms.filter((term) => lower.includes(term)).length
      return { section, hits }
    })
    .filter((s) => s.hits > 0)
    .sort((a, b) => b.hits - a.hits || a.section.order - b.section.order)
  const chosen: Section[] = []
  let size = 0
  for (const { section } of scored) {
    if (size + section.text.length > maxChars && chosen.length > 0) continue
    chosen.push(section)
    size += section.text.length + 2
  }
  chosen.sort((a, b) => a.order - b.order)
  return { text: chosen.map((s) => s.text).join('\n\n---\n\n'), matches: scored.length }
}
