import type { Heading } from 'mdast'
import type { DocumentAssets } from '../markdown/assets'

/** What block and inline conversion share while one DOCX is built. */
export interface DocxContext {
  assets: DocumentAssets
  headingIds: Map<Heading, string>
  /** Footnote label -> the number docx gives it. */
  footnotes: Map<string, number>
  /** One numbering definition per Markdown list, so every list restarts at its own start. */
  lists: Array<{ reference: string; ordered: boolean; start: number }>
  counts: { tables: number; diagrams: number; images: number; headings: number }
  warnings: string[]
  /** Raw HTML blocks of the Markdown written as plain text. */
  rawHtmlBlocks: number
}

export const FONTS = {
  body: 'Times New Roman',
  heading: 'Arial',
  mono: 'Courier New',
  eastAsia: 'Noto Sans CJK SC',
  complex: 'Arial',
} as const

/** Content width in pixels (96 per inch) for A4 with 2 cm margins: pictures are scaled down to fit. */
export const CONTENT_WIDTH_PX = 640

const RTL_SCRIPT = /\p{Script=Hebrew}|\p{Script=Arabic}|\p{Script=Syriac}|\p{Script=Thaana}|\p{Script=Nko}/u

/** True when the first letter is from a right-to-left script (the Unicode bidi rule for a paragraph). */
export function startsRightToLeft(text: string): boolean {
  const first = /\p{L}/u.exec(text)?.[0]
  return first !== undefined && RTL_SCRIPT.test(first)
}

export function fitWidth(width: number, height: number): { width: number; height: number } {
  if (width <= CONTENT_WIDTH_PX)
    return { width: Math.max(1, Math.round(width)), height: Math.max(1, Math.round(height)) }
  return { width: CONTENT_WIDTH_PX, height: Math.max(1, Math.round((height * CONTENT_WIDTH_PX) / width)) }
}
