import { headingLevel, type StyleInfo } from './styles'
import { childrenOf, paragraphFacts } from './xmlScan'

export interface BodyBlock {
  kind: 'paragraph' | 'table' | 'other'
  start: number
  end: number
  heading?: { level: number; text: string }
  /** A paragraph that carries section properties (page size, headers) for the pages before it. */
  sectionBreak: boolean
}

export interface Body {
  blocks: BodyBlock[]
  /** Where content appended at the end goes: before the last section's properties. */
  end: number
  /** Span of the root `<w:document …>` tag, where missing namespace declarations go. */
  rootTag: { start: number; end: number }
}

/** The top-level blocks of document.xml's body, each with its span, and which of them are headings. */
export function readBody(xml: string, styles: Map<string, StyleInfo>, part: string): Body {
  const { children, close, rootTag } = childrenOf(xml, ['w:document', 'w:body'], part)
  const blocks: BodyBlock[] = []
  let end = close
  for (const child of children) {
    if (child.name === 'w:sectPr') {
      end = Math.min(end, child.start)
      continue
    }
    if (child.name !== 'w:p') {
      blocks.push({
        kind: child.name === 'w:tbl' ? 'table' : 'other',
        start: child.start,
        end: child.end,
        sectionBreak: false,
      })
      continue
    }
    const facts = paragraphFacts(xml.slice(child.start, child.end))
    const level =
      headingLevel(styles, facts.style) ??
      (facts.outlineLevel !== undefined && facts.outlineLevel < 9 ? facts.outlineLevel + 1 : undefined)
    blocks.push({
      kind: 'paragraph',
      start: child.start,
      end: child.end,
      sectionBreak: facts.sectionBreak,
      ...(level !== undefined && facts.text.trim() ? { heading: { level, text: facts.text.trim() } } : {}),
    })
  }
  return { blocks, end, rootTag }
}
