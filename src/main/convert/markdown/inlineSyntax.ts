// The Markdown of images, links and list items, shared by the HTML converter's turndown rules
// (htmlToMarkdown.ts) and the light tree that writes mammoth's output (docx/markdown/treeRules.ts), which
// must give the same text for the same HTML.

/** An image's alt text on one line, its brackets escaped. */
export function imageAlt(alt: string): string {
  return alt
    .replace(/[\r\n]+/g, ' ')
    .replace(/[[\]]/g, '\\$&')
    .trim()
}

/** `![alt](src)` with the parentheses and spaces of `src` percent-encoded. */
export function imageMarkdown(alt: string, src: string): string {
  return `![${alt}](${src.replace(/[()\s]/g, encodeURIComponent)})`
}

/** A link's text on one line (block content would break the link over several lines). */
export function linkText(content: string): string {
  return content.replace(/\s*\n+\s*/g, ' ').trim()
}

/** A link target with its parentheses escaped and its spaces encoded. */
export function linkTarget(href: string): string {
  return href.replace(/[()]/g, '\\$&').replace(/\s/g, '%20')
}

/** The number or bullet of a list item: `* ` or `<start + index>. ` (no turndown-style wide padding). */
export function listItemPrefix(ordered: boolean, start: string | null | undefined, index: number): string {
  if (!ordered) return '* '
  return `${(Number(start ?? '1') || 1) + index}. `
}

/** A list item: its prefix, its lines indented under it, a line break before the next item. */
export function listItemMarkdown(prefix: string, content: string, hasNext: boolean): string {
  const isParagraph = /\n$/.test(content)
  const body = content.replace(/^\n+|\n+$/g, '') + (isParagraph ? '\n' : '')
  return prefix + body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`) + (hasNext ? '\n' : '')
}
