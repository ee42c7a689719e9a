import { AppError } from '../../../shared/errors'
import { childElements, insertAfter, remove, setText } from './wordXml'

/** One piece of a paragraph's live text: a w:t (or a tab/break standing for one character) in a run. */
interface Piece {
  node: Element
  run: Element
  start: number
  end: number
}

export interface ParagraphText {
  p: Element
  text: string
  pieces: Piece[]
}

/** Elements whose content is not the paragraph's live text: deleted runs, properties, drawings, text boxes. */
const SKIP = new Set([
  'w:pPr',
  'w:rPr',
  'w:del',
  'w:moveFrom',
  'w:sdtPr',
  'w:sdtEndPr',
  'w:drawing',
  'w:pict',
  'mc:AlternateContent',
  'w:txbxContent',
  'w:object',
])
const CHAR: Record<string, string> = { 'w:tab': '\t', 'w:br': '\n', 'w:cr': '\n', 'w:noBreakHyphen': '-' }

/** The runs of a paragraph that are its text now (inserted ones included, deleted ones not). */
export function liveRuns(p: Element): Element[] {
  const runs: Element[] = []
  const walk = (parent: Element) => {
    for (const child of childElements(parent)) {
      if (child.nodeName === 'w:r') runs.push(child)
      else if (!SKIP.has(child.nodeName) && child.nodeName !== 'w:p') walk(child)
    }
  }
  walk(p)
  return runs
}

/** A paragraph's live text only (what `paragraphText` gives as `text`), without the pieces. */
export function liveText(p: Element): string {
  let text = ''
  const walk = (parent: Element) => {
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      if (child.nodeType !== 1) continue
      const name = child.nodeName
      if (name === 'w:r') {
        for (let node = child.firstChild; node; node = node.nextSibling) {
          if (node.nodeType !== 1) continue
          const name = node.nodeName
          if (name === 'w:t') {
            // A w:t holds one text node; xmldom's textContent would build an array for it.
            const only = node.firstChild
            text +=
              only && !only.nextSibling && only.nodeType === 3
                ? (only.nodeValue ?? '')
                : (node.textContent ?? '')
          } else if (CHAR[name] !== undefined) text += CHAR[name]
        }
      } else if (!SKIP.has(name) && name !== 'w:p') walk(child as Element)
    }
  }
  walk(p)
  return text
}

export function paragraphText(p: Element): ParagraphText {
  const pieces: Piece[] = []
  let text = ''
  for (const run of liveRuns(p))
    for (const node of childElements(run)) {
      const value = node.nodeName === 'w:t' ? (node.textContent ?? '') : CHAR[node.nodeName]
      if (value === undefined) continue
      pieces.push({ node, run, start: text.length, end: text.length + value.length })
      text += value
    }
  return { p, text, pieces }
}

/** Body paragraphs in document order, text boxes' paragraphs left out (they are drawn, not flowed). */
export function bodyParagraphs(doc: Document | Element): Element[] {
  const out: Element[] = []
  const walk = (parent: Node) => {
    for (let node = parent.firstChild; node; node = node.nextSibling) {
      if (node.nodeType !== 1) continue
      const name = node.nodeName
      if (name === 'w:txbxContent' || name === 'mc:Fallback') continue
      if (name === 'w:p') out.push(node as Element)
      if (node.firstChild) walk(node)
    }
  }
  walk(doc)
  return out
}

/** Splits a run before content child `child`, cutting that child's text at `offset` when given. */
function splitRun(run: Element, child: Element, offset?: number): void {
  const content = childElements(run).filter((c) => c.nodeName !== 'w:rPr')
  const index = content.indexOf(child)
  const clone = run.cloneNode(true) as Element
  const cloned = childElements(clone).filter((c) => c.nodeName !== 'w:rPr')
  const value = child.textContent ?? ''
  for (const later of content.slice(index + 1)) remove(later)
  if (offset === undefined) remove(child)
  else setText(child, value.slice(0, offset))
  for (const earlier of cloned.slice(0, index)) remove(earlier)
  const twin = cloned[index]
  if (twin && offset !== undefined) setText(twin, value.slice(offset))
  insertAfter(clone, run)
}

/** Makes `pos` fall between two runs. */
function splitAt(p: Element, pos: number): void {
  const { pieces } = paragraphText(p)
  const inside = pieces.find((piece) => piece.start < pos && pos < piece.end)
  if (inside) {
    splitRun(inside.run, inside.node, pos - inside.start)
    return
  }
  const next = pieces.findIndex((piece) => piece.start === pos && piece.end > piece.start)
  const before = next > 0 ? pieces[next - 1] : undefined
  const at = pieces[next]
  if (at && before && before.run === at.run) splitRun(at.run, at.node)
}

/** The runs that hold exactly the text [from, to) of a paragraph, split where needed. */
export function isolate(p: Element, from: number, to: number): Element[] {
  splitAt(p, to)
  splitAt(p, from)
  const runs: Element[] = []
  for (const piece of paragraphText(p).pieces)
    if (piece.start >= from && piece.end <= to && piece.end > piece.start && !runs.includes(piece.run))
      runs.push(piece.run)
  return runs
}

export interface FindOptions {
  matchCase?: boolean
  wholeWord?: boolean
}

const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

export function finder(find: string, options: FindOptions = {}): RegExp {
  if (!find) throw new AppError('VALIDATION_FAILED', 'The text to find is empty.')
  const core = escapeRegex(find).replace(/\s+/g, '\\s+')
  const source = options.wholeWord ? `(?<![\\p{L}\\p{N}_])${core}(?![\\p{L}\\p{N}_])` : core
  return new RegExp(source, `gu${options.matchCase ? '' : 'i'}`)
}

export interface Match {
  p: Element
  from: number
  to: number
}

/** Every match in the body's paragraphs, in document order. */
export function findAll(doc: Document, pattern: RegExp): Match[] {
  const found: Match[] = []
  for (const p of bodyParagraphs(doc)) {
    const text = liveText(p)
    pattern.lastIndex = 0
    for (const match of text.matchAll(pattern))
      if (match[0].length > 0) found.push({ p, from: match.index, to: match.index + match[0].length })
  }
  return found
}

/** A paragraph's text with its tracked changes as {++inserted++} and {--deleted--}, for receipts. */
export function reviewText(p: Element): string {
  let out = ''
  const walk = (parent: Element, mark: '' | 'ins' | 'del') => {
    for (const child of childElements(parent)) {
      const name = child.nodeName
      if (name === 'w:ins' || name === 'w:moveTo') {
        out += mark ? '' : '{++'
        walk(child, mark || 'ins')
        out += mark ? '' : '++}'
      } else if (name === 'w:del' || name === 'w:moveFrom') {
        out += mark === 'del' ? '' : '{--'
        walk(child, 'del')
        out += mark === 'del' ? '' : '--}'
      } else if (name === 'w:t' || name === 'w:delText') out += child.textContent ?? ''
      else if (CHAR[name] !== undefined && parent.nodeName === 'w:r') out += CHAR[name]
      else if (!SKIP.has(name)) walk(child, mark)
    }
  }
  walk(p, '')
  return out.replace(/\{\+\+\+\+\}|\{----\}/g, '')
}

/** Where each touched paragraph is, and its text before the edit, to build receipts from the saved file. */
export class Touched {
  private readonly before = new Map<Element, string>()
  note(p: Element): void {
    if (!this.before.has(p)) this.before.set(p, reviewText(p))
  }
  /**
   * 1-based paragraph numbers with the text before the edit, per part (body, header1...), the parts in the
   * order given.
   */
  list(
    parts: Array<{ part: string; doc: Document }>,
  ): Array<{ part: string; paragraph: number; before: string }> {
    const out: Array<{ part: string; paragraph: number; before: string; order: number }> = []
    const indexed = parts.map((s, order) => ({ ...s, order, all: bodyParagraphs(s.doc) }))
    for (const [p, before] of this.before) {
      const story = indexed.find((s) => s.doc === p.ownerDocument)
      const paragraph = story ? story.all.indexOf(p) + 1 : 0
      if (story && paragraph > 0) out.push({ part: story.part, paragraph, before, order: story.order })
    }
    return out
      .sort((a, b) => a.order - b.order || a.paragraph - b.paragraph)
      .map(({ part, paragraph, before }) => ({ part, paragraph, before }))
  }
}
