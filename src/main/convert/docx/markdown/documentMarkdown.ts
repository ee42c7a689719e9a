import { restoreMath } from '../inlineMath'
import { restoreNoteMarkers } from '../noteMarkers'
import { descendants, type LightElement, textContent } from './lightDom'
import { extractTreeNotes } from './treeNotes'
import { treeToMarkdown } from './treeToMarkdown'

/**
 * The Markdown of mammoth's document as the light tree holds it: the steps of the DOM path
 * (`viaHtml.ts`), in its order: notes out of the body, the title, the body, comments, footnotes.
 * Throws `Unsupported` (buildTree.ts) for what only the DOM path writes.
 */
export function documentMarkdown(document: LightElement): { markdown: string; title?: string } {
  const notes = extractTreeNotes(document)
  const heading = descendants(document, (element) => element.name === 'H1')[0]
  const title = heading ? textContent(heading).trim() : undefined
  const parts = [restoreNoteMarkers(treeToMarkdown(document))]
  if (notes.comments.length > 0) parts.push(`## Comments\n\n${notes.comments.join('\n')}`)
  if (notes.footnotes.length > 0) parts.push(notes.footnotes.join('\n'))
  const markdown = restoreMath(parts.filter(Boolean).join('\n\n'))
  return title ? { markdown, title } : { markdown }
}
