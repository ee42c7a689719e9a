import { z } from 'zod'
import { frameUntrusted } from './frameContent'
import { PAGE_CHARS, paginate, queryMarkdown } from './paging'

/** What navigate, read_page and the actions return: one page of the Markdown, framed as untrusted. */
export const PageView = z.object({
  url: z.string(),
  title: z.string(),
  page: z.number().int(),
  pages: z.number().int(),
  content: z.string(),
})
export type PageView = z.infer<typeof PageView>

export interface RenderedDocument {
  url: string
  title: string
  markdown: string
  /** Extra lines for the header, e.g. "Cookie banner: opted out (Onetrust)". */
  notes: string[]
}

export function pageView(doc: RenderedDocument, page = 1, pageChars = PAGE_CHARS): PageView {
  const pages = paginate(doc.markdown, pageChars)
  const index = Math.min(Math.max(1, page), pages.length)
  const header = [`Title: ${doc.title || '(none)'}`, ...doc.notes]
  if (pages.length > 1)
    header.push(
      `Page ${index} of ${pages.length}${index < pages.length ? ` (read_page with page ${index + 1} for more, or query to search it)` : ''}`,
    )
  if (page > pages.length) header.push(`There is no page ${page}; showing the last page.`)
  return {
    url: doc.url,
    title: doc.title,
    page: index,
    pages: pages.length,
    content: frameUntrusted(doc.url, pages[index - 1] ?? '', header),
  }
}

export function queryView(doc: RenderedDocument, query: string, pageChars = PAGE_CHARS): PageView {
  const found = queryMarkdown(doc.markdown, query, pageChars)
  const header = [
    `Title: ${doc.title || '(none)'}`,
    found.matches > 0
      ? `Sections matching ${JSON.stringify(query)}: ${found.matches}`
      : `Nothing on the page matches ${JSON.stringify(query)}.`,
  ]
  return {
    url: doc.url,
    title: doc.title,
    page: 1,
    pages: paginate(doc.markdown, pageChars).length,
    content: frameUntrusted(doc.url, found.text, header),
  }
}
