import { images } from 'mammoth'
import { openDocx } from '../docx/docxPackage'
import { restoreMath } from '../docx/inlineMath'
import { extractNotes, restoreNoteMarkers } from '../docx/notes'
import { runMammoth } from '../docx/runMammoth'
import { descendants } from '../markdown/domEdit'
import { htmlToMarkdown } from '../markdown/htmlToMarkdown'
import { parseHtml } from '../markdown/parseHtml'
import type { ConvertContext, FormatOutput } from '../types'

const styleMap = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
  'comment-reference => sup',
]

interface MammothImage {
  contentType: string | null
  readAsBase64String(): Promise<string>
}

/** docx via mammoth (semantic HTML) and turndown: headings, lists, tables, links, footnotes, comments. */
export async function convertDocx(context: ConvertContext): Promise<FormatOutput> {
  const file = await openDocx(context.bytes)
  const convertImage = images.imgElement(async (image: MammothImage) => {
    if (!image.contentType) return { src: 'linked-image' }
    if (!context.keepDataUris) return { src: `data:${image.contentType};base64...` }
    try {
      return { src: `data:${image.contentType};base64,${await image.readAsBase64String()}` }
    } catch {
      return { src: 'missing-image' }
    }
  })
  const html = await runMammoth(file, { styleMap, convertImage })
  context.signal.throwIfAborted()
  const document = parseHtml(`<body>${html}</body>`)
  const notes = extractNotes(document)
  const title = descendants(document, (_element, name) => name === 'h1')[0]?.textContent?.trim()
  const parts = [restoreNoteMarkers(htmlToMarkdown(document, { dataImages: 'keep' }))]
  if (notes.comments.length > 0) parts.push(`## Comments\n\n${notes.comments.join('\n')}`)
  if (notes.footnotes.length > 0) parts.push(notes.footnotes.join('\n'))
  const markdown = restoreMath(parts.filter(Boolean).join('\n\n'))
  return title ? { markdown, title } : { markdown }
}
