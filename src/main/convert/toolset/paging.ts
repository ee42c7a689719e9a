export interface MarkdownPage {
  text: string
  /** 1-based. */
  page: number
  pages: number
}

/**
 * Where each page starts: pages hold at most `maxChars` characters and end after a blank line (else a
 * line break, else a space) when one falls in their second half, so tables and paragraphs are rarely split.
 * The pages joined give the Markdown back exactly.
 */
export function pageStarts(markdown: string, maxChars: number): number[] {
  const starts = [0]
  let start = 0
  while (markdown.length - start > maxChars) {
    const window = markdown.slice(start, start + maxChars)
    const half = Math.floor(maxChars / 2)
    let cut = window.lastIndexOf('\n\n') + 2
    if (cut < half) cut = window.lastIndexOf('\n') + 1
    // A long paragraph ends its page after a word, not inside one.
    if (cut < half) cut = window.lastIndexOf(' ') + 1
    if (cut < half) {
      cut = maxChars
      // Never split a surrogate pair (an emoji or a rare CJK character).
      const code = window.charCodeAt(cut - 1)
      if (code >= 0xd800 && code <= 0xdbff) cut--
    }
    start += cut
    starts.push(start)
  }
  return starts
}

export function markdownPage(markdown: string, maxChars: number, page: number): MarkdownPage | undefined {
  const starts = pageStarts(markdown, maxChars)
  const from = starts[page - 1]
  if (from === undefined) return undefined
  return { text: markdown.slice(from, starts[page] ?? markdown.length), page, pages: starts.length }
}
