import type { Code, Heading, Image, Nodes, Root, RootContent } from 'mdast'
import { toString as textOf } from 'mdast-util-to-string'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import { unified } from 'unified'

/** GFM as the chat renders it (remark-gfm: tables, task lists, strikethrough, footnotes, autolinks). */
export function parseMarkdown(markdown: string): Root {
  const processor = unified().use(remarkParse).use(remarkGfm)
  return processor.runSync(processor.parse(markdown)) as Root
}

const PAGE_BREAK_TEXT = /^\\(pagebreak|newpage)$/
const PAGE_BREAK_HTML = /^<!--\s*page-?break\s*-->$/i

/** `\pagebreak`, `\newpage` or `<!-- pagebreak -->` alone on a paragraph. */
export function isPageBreak(node: RootContent): boolean {
  if (node.type === 'html') return PAGE_BREAK_HTML.test(node.value.trim())
  return node.type === 'paragraph' && PAGE_BREAK_TEXT.test(textOf(node).trim())
}

export function isMermaid(node: Nodes): node is Code {
  return node.type === 'code' && (node.lang ?? '').toLowerCase() === 'mermaid'
}

function walk(node: Nodes, visit: (node: Nodes) => void): void {
  visit(node)
  if ('children' in node) for (const child of node.children) walk(child as Nodes, visit)
}

export function collect<T extends Nodes>(root: Root, test: (node: Nodes) => node is T): T[] {
  const found: T[] = []
  walk(root, (node) => {
    if (test(node)) found.push(node)
  })
  return found
}

export const isImage = (node: Nodes): node is Image => node.type === 'image'
export const isHeading = (node: Nodes): node is Heading => node.type === 'heading'

/** GitHub-style anchors, made unique in document order; the same ids in HTML and DOCX bookmarks. */
export function headingIds(headings: readonly Heading[]): Map<Heading, string> {
  const seen = new Map<string, number>()
  const ids = new Map<Heading, string>()
  for (const heading of headings) {
    const base =
      textOf(heading)
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s-]/gu, '')
        .trim()
        .replace(/\s+/g, '-') || 'section'
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    ids.set(heading, count === 0 ? base : `${base}-${count}`)
  }
  return ids
}

export { textOf }
