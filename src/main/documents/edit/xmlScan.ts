import { SaxesParser } from 'saxes'
import { AppError } from '../../../shared/errors'

/** One child element found by a scan, with its exact span in the source string. */
export interface XmlChild {
  name: string
  attributes: Record<string, string>
  start: number
  end: number
}

export interface XmlChildren {
  children: XmlChild[]
  /** Index of the parent's closing tag (where new children go last). */
  close: number
  /** Span of the root element's opening tag. */
  rootTag: { start: number; end: number }
}

export function damaged(part: string, reason: string): AppError {
  return new AppError(
    'VALIDATION_FAILED',
    `The document is damaged (${part}: ${reason}); it was not changed.`,
  )
}

/**
 * The children of the element at `path` (qualified names from the root), located with a real XML parser so
 * the text around them can be kept byte for byte when children are inserted or removed.
 */
export function childrenOf(xml: string, path: readonly string[], part: string): XmlChildren {
  const parser = new SaxesParser({ position: true })
  const stack: string[] = []
  const children: XmlChild[] = []
  let open: XmlChild | undefined
  let close = -1
  let rootTag = { start: -1, end: -1 }
  let tagStart = 0
  const atParent = () => stack.length === path.length && stack.every((name, i) => name === path[i])
  parser.on('opentagstart', () => {
    tagStart = xml.lastIndexOf('<', parser.position - 1)
  })
  parser.on('opentag', (tag) => {
    if (stack.length === 0) rootTag = { start: tagStart, end: parser.position }
    if (atParent()) {
      const attributes: Record<string, string> = {}
      for (const [key, value] of Object.entries(tag.attributes)) attributes[key] = String(value)
      open = { name: tag.name, attributes, start: tagStart, end: -1 }
      children.push(open)
    }
    stack.push(tag.name)
    if (tag.isSelfClosing && open && stack.length === path.length + 1) open.end = parser.position
  })
  parser.on('closetag', (tag) => {
    stack.pop()
    if (atParent() && open && open.end < 0) open.end = parser.position
    if (stack.length === path.length - 1 && tag.name === path[path.length - 1] && close < 0)
      close = tag.isSelfClosing ? -1 : xml.lastIndexOf('</', parser.position - 1)
  })
  try {
    parser.write(xml).close()
  } catch (error) {
    throw damaged(part, (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '')
  }
  if (path.length > 0 && close < 0) throw damaged(part, `no <${path[path.length - 1]}> element`)
  if (rootTag.start < 0) throw damaged(part, 'no root element')
  return { children, close, rootTag }
}

/** Paragraph facts: its style, outline level, whether it ends a section, and its text. */
export interface ParagraphFacts {
  style?: string
  outlineLevel?: number
  sectionBreak: boolean
  text: string
}

export function paragraphFacts(xml: string): ParagraphFacts {
  const parser = new SaxesParser()
  const stack: string[] = []
  const facts: ParagraphFacts = { sectionBreak: false, text: '' }
  parser.on('opentag', (tag) => {
    const parent = stack[stack.length - 1]
    if (parent === 'w:pPr' && stack.length === 2) {
      if (tag.name === 'w:pStyle') facts.style = String(tag.attributes['w:val'] ?? '')
      if (tag.name === 'w:outlineLvl') facts.outlineLevel = Number(tag.attributes['w:val'])
      if (tag.name === 'w:sectPr') facts.sectionBreak = true
    }
    stack.push(tag.name)
  })
  parser.on('text', (text) => {
    if (stack[stack.length - 1] === 'w:t') facts.text += text
  })
  parser.on('closetag', () => {
    stack.pop()
  })
  parser.write(xml).close()
  return facts
}
