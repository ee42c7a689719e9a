import { descendants } from '../markdown/domEdit'
import { htmlToMarkdown } from '../markdown/htmlToMarkdown'
import { parseHtml } from '../markdown/parseHtml'
import { restoreMath } from './inlineMath'
import { restoreNoteMarkers } from './noteMarkers'
import { extractNotes } from './notes'

/**
 * mammoth's HTML to Markdown through a DOM (domino) and turndown with the GFM plugin: the path for
 * the documents the light tree leaves alone (markdown/buildTree.ts), and the reference the light tree
 * is tested against. Imported when needed, so a usual .docx loads neither domino nor turndown.
 */
export function htmlMarkdown(html: string): { markdown: string; title?: string } {
  const document = parseHtml(`<body>${html}</body>`)
  const notes = extractNotes(document)
  const title = descendants(document, (_element, name) => name === 'h1')[0]?.textContent?.trim()
  const parts = [restoreNoteMarkers(htmlToMarkdown(document, { dataImages: 'keep' }))]
  if (notes.comments.length > 0) parts.push(`## Comments\n\n${notes.comments.join('\n')}`)
  if (notes.footnotes.length > 0) parts.push(notes.footnotes.join('\n'))
  const markdown = restoreMath(parts.filter(Boolean).join('\n\n'))
  return title ? { markdown, title } : { markdown }
}
