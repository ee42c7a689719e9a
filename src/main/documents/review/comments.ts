import { randomBytes } from 'node:crypto'
import { AppError } from '../../../shared/errors'
import { bodyParagraphs, findAll, finder, isolate, liveRuns, paragraphText, Touched } from './paragraphs'
import {
  COMMENTS_EX_REL,
  COMMENTS_REL,
  childElements,
  declare,
  elements,
  ensurePart,
  ignorable,
  insertAfter,
  make,
  nextId,
  partDom,
  relatedPart,
  setText,
  W_NS,
  W14_NS,
  W15_NS,
  type WordFile,
  wordDate,
} from './wordXml'

const MC_NS = 'http://schemas.openxmlformats.org/markup-compatibility/2006'

function commentsPart(file: WordFile): Document {
  const doc = ensurePart(file, {
    name: 'word/comments.xml',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml',
    relType: COMMENTS_REL,
    root: `<w:comments xmlns:w="${W_NS}" xmlns:w14="${W14_NS}" xmlns:mc="${MC_NS}" mc:Ignorable="w14"/>`,
  })
  declare(doc, 'w14', W14_NS)
  ignorable(doc, 'w14')
  return doc
}

function extendedPart(file: WordFile): Document {
  return ensurePart(file, {
    name: 'word/commentsExtended.xml',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml',
    relType: COMMENTS_EX_REL,
    root: `<w15:commentsEx xmlns:w15="${W15_NS}" xmlns:mc="${MC_NS}" mc:Ignorable="w15"/>`,
  })
}

function existingComments(file: WordFile): Document | undefined {
  const name = relatedPart(file, COMMENTS_REL)
  return name ? partDom(file, name) : undefined
}

const paraId = () =>
  randomBytes(4)
    .toString('hex')
    .toUpperCase()
    .replace(/^[89A-F]/, '1')

/** The comment's body: one paragraph per line of `text`, the first holding the annotation mark. */
function commentElement(doc: Document, id: number, text: string, author: string, initials: string): Element {
  const comment = make(doc, 'w:comment', {
    'w:id': String(id),
    'w:author': author,
    'w:date': wordDate(),
    'w:initials': initials,
  })
  text.split(/\r?\n/).forEach((line, index) => {
    const p = make(doc, 'w:p', { 'w14:paraId': paraId(), 'w14:textId': '77777777' })
    if (index === 0) {
      const mark = make(doc, 'w:r')
      mark.appendChild(make(doc, 'w:annotationRef'))
      p.appendChild(mark)
    }
    const run = make(doc, 'w:r')
    const t = make(doc, 'w:t')
    setText(t, line)
    run.appendChild(t)
    p.appendChild(run)
    comment.appendChild(p)
  })
  return comment
}

function lastParaId(comment: Element, doc: Document): string {
  const paragraphs = elements(comment, 'w:p')
  const last = paragraphs[paragraphs.length - 1]
  if (!last) throw new AppError('VALIDATION_FAILED', 'The comment has no paragraph to reply to.')
  declare(doc, 'w14', W14_NS)
  ignorable(doc, 'w14')
  const existing = last.getAttribute('w14:paraId')
  if (existing) return existing
  const id = paraId()
  last.setAttributeNS(W14_NS, 'w14:paraId', id)
  return id
}

function commentExFor(ex: Document, id: string): Element {
  const found = elements(ex, 'w15:commentEx').find((e) => e.getAttribute('w15:paraId') === id)
  if (found) return found
  const entry = make(ex, 'w15:commentEx', { 'w15:paraId': id, 'w15:done': '0' })
  ex.documentElement.appendChild(entry)
  return entry
}

const initialsOf = (author: string) =>
  author
    .split(/\s+/)
    .map((word) => word[0] ?? '')
    .join('')
    .slice(0, 4)
    .toUpperCase()

function referenceRun(doc: Document, id: number): Element {
  const run = make(doc, 'w:r')
  run.appendChild(make(doc, 'w:commentReference', { 'w:id': String(id) }))
  return run
}

export interface CommentOutcome {
  commentId: string
  touched: Touched
  anchor: string
}

/** A comment on the text `anchorText` (its `occurrence`), or on a whole paragraph (1-based). */
export function addComment(
  file: WordFile,
  args: {
    anchorText?: string | undefined
    paragraph?: number | undefined
    occurrence?: number | undefined
    text: string
    author: string
  },
): CommentOutcome {
  const { doc } = file
  let p: Element
  let first: Element | undefined
  let last: Element | undefined
  let anchor: string
  if (args.anchorText !== undefined) {
    const matches = findAll(doc, finder(args.anchorText))
    const match = matches[(args.occurrence ?? 1) - 1]
    if (!match)
      throw new AppError(
        'NOT_FOUND',
        matches.length === 0
          ? `"${args.anchorText}" is not in the document's text; nothing was changed.`
          : `"${args.anchorText}" occurs ${matches.length} time(s); occurrence ${args.occurrence} is past the end.`,
      )
    p = match.p
    anchor = paragraphText(p).text.slice(match.from, match.to)
    const runs = isolate(p, match.from, match.to)
    first = runs[0]
    last = runs[runs.length - 1]
  } else {
    const all = bodyParagraphs(doc)
    const chosen = args.paragraph !== undefined ? all[args.paragraph - 1] : undefined
    if (!chosen)
      throw new AppError(
        'NOT_FOUND',
        `The document has ${all.length} paragraphs; paragraph ${args.paragraph} is not one.`,
      )
    p = chosen
    anchor = paragraphText(p).text
    const runs = liveRuns(p)
    first = runs[0]
    last = runs[runs.length - 1]
  }
  const touched = new Touched()
  touched.note(p)
  const comments = commentsPart(file)
  const id = nextId(doc, comments)
  const start = make(doc, 'w:commentRangeStart', { 'w:id': String(id) })
  const end = make(doc, 'w:commentRangeEnd', { 'w:id': String(id) })
  if (first && last) {
    first.parentNode?.insertBefore(start, first)
    insertAfter(end, last)
  } else {
    const props = childElements(p).find((c) => c.nodeName === 'w:pPr')
    if (props) insertAfter(start, props)
    else p.insertBefore(start, p.firstChild)
    insertAfter(end, start)
  }
  insertAfter(referenceRun(doc, id), end)
  comments.documentElement.appendChild(
    commentElement(comments, id, args.text, args.author, initialsOf(args.author)),
  )
  return { commentId: String(id), touched, anchor }
}

function findComment(file: WordFile, commentId: string): { comments: Document; comment: Element } {
  const comments = existingComments(file)
  const all = comments ? elements(comments, 'w:comment') : []
  const comment = all.find((c) => c.getAttribute('w:id') === commentId)
  if (!comments || !comment)
    throw new AppError(
      'NOT_FOUND',
      `No comment ${commentId}; the document's comments: ${all.map((c) => c.getAttribute('w:id')).join(', ') || 'none'}. Nothing was changed.`,
    )
  return { comments, comment }
}

/** A reply in the comment's thread, anchored where the comment is (as Word writes replies). */
export function replyToComment(
  file: WordFile,
  args: { commentId: string; text: string; author: string },
): CommentOutcome {
  const { comments, comment } = findComment(file, args.commentId)
  const { doc } = file
  const parentPara = lastParaId(comment, comments)
  const id = nextId(doc, comments)
  const touched = new Touched()
  const start = elements(doc, 'w:commentRangeStart').find((e) => e.getAttribute('w:id') === args.commentId)
  const end = elements(doc, 'w:commentRangeEnd').find((e) => e.getAttribute('w:id') === args.commentId)
  const reference = elements(doc, 'w:commentReference').find((e) => e.getAttribute('w:id') === args.commentId)
  if (start) insertAfter(make(doc, 'w:commentRangeStart', { 'w:id': String(id) }), start)
  const after = end ?? reference?.parentNode
  if (after) {
    const newEnd = make(doc, 'w:commentRangeEnd', { 'w:id': String(id) })
    insertAfter(newEnd, after)
    const refRun = referenceRun(doc, id)
    const ownRef = reference?.parentNode
    insertAfter(refRun, ownRef && ownRef.parentNode === newEnd.parentNode ? ownRef : newEnd)
    for (let node: Node | null = newEnd; node; node = node.parentNode)
      if (node.nodeName === 'w:p') {
        touched.note(node as Element)
        break
      }
  }
  const reply = commentElement(comments, id, args.text, args.author, initialsOf(args.author))
  comments.documentElement.insertBefore(reply, comment.nextSibling)
  const ex = extendedPart(file)
  commentExFor(ex, parentPara)
  const replyPara = lastParaId(reply, comments)
  commentExFor(ex, replyPara).setAttributeNS(W15_NS, 'w15:paraIdParent', parentPara)
  return { commentId: String(id), touched, anchor: '' }
}

/** Marks a comment's thread done (Word's "Resolve"), or open again. */
export function resolveComment(file: WordFile, args: { commentId: string; resolved: boolean }): void {
  const { comments, comment } = findComment(file, args.commentId)
  const ex = extendedPart(file)
  commentExFor(ex, lastParaId(comment, comments)).setAttributeNS(
    W15_NS,
    'w15:done',
    args.resolved ? '1' : '0',
  )
}
