import type { Code, Heading, Image, List, ListItem, Root, RootContent, Table } from 'mdast'
import { AppError } from '../../../shared/errors'
import { isMermaid, parseMarkdown, textOf } from '../markdown/parseMarkdown'

export const MAX_SLIDES = 200
const MAX_BULLETS = 40

export interface Bullet {
  text: string
  level: number
  /** A paragraph or sub-heading rather than a list item. */
  plain: boolean
  bold: boolean
}

export type Visual =
  | { kind: 'table'; rows: string[][] }
  | { kind: 'image'; node: Image }
  | { kind: 'diagram'; node: Code }

export interface SlideOutline {
  title: string
  bullets: Bullet[]
  visuals: Visual[]
  notes: string
}

const NOTES = /^(speaker )?notes?:\s*/i

function listBullets(list: List, level: number, out: Bullet[]): void {
  for (const item of list.children as ListItem[])
    for (const child of item.children) {
      if (child.type === 'list') listBullets(child, level + 1, out)
      else out.push({ text: textOf(child), level, plain: false, bold: false })
    }
}

function tableRows(table: Table): string[][] {
  return table.children.map((row) => row.children.map((cell) => textOf(cell)))
}

/** The slides of a Markdown outline: one per heading of the top level used (# usually), notes after "Notes:". */
export function outlineSlides(markdown: string): { slides: SlideOutline[]; root: Root } {
  const root = parseMarkdown(markdown)
  const headings = root.children.filter((n): n is Heading => n.type === 'heading')
  const top = Math.min(...headings.map((h) => h.depth), 7)
  const slides: SlideOutline[] = []
  let slide: SlideOutline | undefined
  let inNotes = false
  const current = () => {
    if (!slide) {
      slide = { title: '', bullets: [], visuals: [], notes: '' }
      slides.push(slide)
    }
    return slide
  }
  for (const node of root.children as RootContent[]) {
    if (node.type === 'heading' && node.depth === top) {
      slide = { title: textOf(node), bullets: [], visuals: [], notes: '' }
      slides.push(slide)
      inNotes = false
      if (slides.length > MAX_SLIDES)
        throw new AppError(
          'VALIDATION_FAILED',
          `The outline has more than ${MAX_SLIDES} slides (one per ${'#'.repeat(top)} heading); split it into several decks. Nothing was written.`,
        )
      continue
    }
    const target = current()
    if (node.type === 'paragraph' && NOTES.test(textOf(node))) {
      inNotes = true
      target.notes = textOf(node).replace(NOTES, '')
      continue
    }
    if (inNotes) {
      target.notes += `\n${textOf(node)}`
      continue
    }
    if (node.type === 'heading')
      target.bullets.push({ text: textOf(node), level: 0, plain: true, bold: true })
    else if (node.type === 'list') listBullets(node, 0, target.bullets)
    else if (node.type === 'table') target.visuals.push({ kind: 'table', rows: tableRows(node) })
    else if (isMermaid(node)) target.visuals.push({ kind: 'diagram', node })
    else if (node.type === 'paragraph' && node.children.length === 1 && node.children[0]?.type === 'image')
      target.visuals.push({ kind: 'image', node: node.children[0] })
    // A code block that is not a diagram (isMermaid narrows `node` as if every code block were one).
    else if (node.type === 'paragraph' || node.type === 'blockquote' || (node as RootContent).type === 'code')
      target.bullets.push({ text: textOf(node), level: 0, plain: true, bold: false })
  }
  for (const s of slides)
    if (s.bullets.length > MAX_BULLETS)
      throw new AppError(
        'VALIDATION_FAILED',
        `The slide "${s.title}" has ${s.bullets.length} lines; at most ${MAX_BULLETS} fit. Split it. Nothing was written.`,
      )
  if (slides.length === 0)
    throw new AppError('VALIDATION_FAILED', 'The Markdown has no slides: start each slide with a # heading.')
  return { slides, root }
}
