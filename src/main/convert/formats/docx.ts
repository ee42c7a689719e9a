import { images } from 'mammoth'
import type { DocxFile } from 'mammoth/lib/unzip.js'
import { openDocx } from '../docx/docxPackage'
import { Unsupported } from '../docx/markdown/buildTree'
import { documentMarkdown } from '../docx/markdown/documentMarkdown'
import { commentSection, readCommentStates, readComments } from '../docx/reviewComments'
import { ReviewMarks, restoreReview, reviewedStoryLines } from '../docx/reviewMarks'
import { runMammoth } from '../docx/runMammoth'
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

/**
 * docx via mammoth and turndown's rules: headings, lists, tables, links, footnotes, comments. mammoth's
 * HTML is built as a light tree and written as Markdown directly (docx/markdown/); what that tree does
 * not cover goes through the HTML, a DOM and turndown (`viaHtml.ts`), with the same result.
 */
export async function convertDocx(context: ConvertContext): Promise<FormatOutput> {
  const marks = new ReviewMarks(context.acceptedText ? 'accepted' : 'marks')
  const file = await openDocx(context.bytes, marks)
  const convertImage = images.imgElement(async (image: MammothImage) => {
    if (!image.contentType) return { src: 'linked-image' }
    if (!context.keepDataUris) return { src: `data:${image.contentType};base64...` }
    try {
      return { src: `data:${image.contentType};base64,${await image.readAsBase64String()}` }
    } catch {
      return { src: 'missing-image' }
    }
  })
  const output = await runMammoth(file, { styleMap, convertImage })
  context.signal.throwIfAborted()
  return withReview(await markdownOf(output), file, marks)
}

async function markdownOf(output: Awaited<ReturnType<typeof runMammoth>>): Promise<FormatOutput> {
  if (output.document) {
    try {
      return documentMarkdown(output.document)
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error
    }
  }
  return (await import('../docx/viaHtml')).htmlMarkdown(output.html())
}

/** Tracked changes and comment anchors as CriticMarkup, and the comment threads listed at the end. */
async function withReview(out: FormatOutput, file: DocxFile, marks: ReviewMarks): Promise<FormatOutput> {
  const stories = await storySection(file, marks)
  if (marks.mode === 'accepted' || !file.exists('word/comments.xml'))
    return { ...out, markdown: restoreReview(out.markdown + stories, marks) }
  const comments = await readComments(String(await file.read('word/comments.xml', 'utf-8')))
  const states = file.exists('word/commentsExtended.xml')
    ? await readCommentStates(String(await file.read('word/commentsExtended.xml', 'utf-8')))
    : new Map()
  const section = commentSection(comments, states)
  const markdown = restoreReview(out.markdown + stories, marks)
  return { ...out, markdown: section ? `${markdown}\n\n${section}` : markdown }
}

const storyRel = /<Relationship\b[^>]*?\bType="[^"]*\/(header|footer)"[^>]*>/g

/** A "## Headers and footers" section for the headers and footers that have tracked changes. */
async function storySection(file: DocxFile, marks: ReviewMarks): Promise<string> {
  const rels = 'word/_rels/document.xml.rels'
  if (marks.mode !== 'marks' || !file.exists(rels)) return ''
  const lines: string[] = []
  const seen = new Set<string>()
  for (const [tag] of String(await file.read(rels, 'utf-8')).matchAll(storyRel)) {
    const target = /\bTarget="([^"]+)"/.exec(tag)?.[1]
    if (!target || /TargetMode="External"/.test(tag)) continue
    const name = target.startsWith('/') ? target.slice(1) : `word/${target}`
    if (seen.has(name) || !file.exists(name)) continue
    seen.add(name)
    const label = name.replace(/^.*\//, '').replace(/\.xml$/, '')
    for (const line of reviewedStoryLines(String(await file.read(name, 'utf-8')), marks))
      lines.push(`- ${label}: ${line}`)
  }
  return lines.length > 0 ? `\n\n## Headers and footers\n\n${lines.join('\n')}` : ''
}
