import {
  ExternalHyperlink,
  FootnoteReferenceRun,
  ImageRun,
  InternalHyperlink,
  type ParagraphChild,
  TextRun,
} from 'docx'
import type { PhrasingContent } from 'mdast'
import { type DocxContext, FONTS, fitWidth } from './docxContext'

interface RunStyle {
  bold?: boolean
  italics?: boolean
  strike?: boolean
  code?: boolean
  link?: boolean
  rtl?: boolean
}

function textRun(value: string, style: RunStyle): TextRun {
  return new TextRun({
    text: value,
    ...(style.bold ? { bold: true } : {}),
    ...(style.italics ? { italics: true } : {}),
    ...(style.strike ? { strike: true } : {}),
    ...(style.code ? { font: FONTS.mono, shading: { fill: 'F0F0F0', type: 'clear', color: 'auto' } } : {}),
    ...(style.link ? { style: 'Hyperlink' } : {}),
    ...(style.rtl ? { rightToLeft: true } : {}),
  })
}

function imageRun(node: Extract<PhrasingContent, { type: 'image' }>, ctx: DocxContext): ParagraphChild {
  const loaded = ctx.assets.images.get(node)
  if (!loaded) return textRun(`[image: ${node.alt || node.url}]`, { italics: true })
  if (loaded.type === 'svg' || loaded.type === 'webp') {
    ctx.warnings.push(`Image "${node.url}" (${loaded.type}) is not embedded in DOCX; use PNG or JPEG.`)
    return textRun(`[image: ${node.alt || node.url}]`, { italics: true })
  }
  ctx.counts.images += 1
  return new ImageRun({
    type: loaded.type,
    data: loaded.bytes,
    transformation: fitWidth(loaded.width, loaded.height),
    altText: { name: node.alt || 'image', description: node.alt ?? '', title: node.title ?? node.alt ?? '' },
  })
}

const SAFE_URL = /^(https?:|mailto:)/i

/** Appends without spreading: a paragraph may hold more runs than a call can take as arguments. */
function append<T>(out: T[], items: readonly T[]): void {
  for (const item of items) out.push(item)
}

/** Markdown inline content as docx runs; styles nest (bold inside a link inside emphasis). */
export function inlines(
  nodes: readonly PhrasingContent[],
  ctx: DocxContext,
  style: RunStyle = {},
): ParagraphChild[] {
  const out: ParagraphChild[] = []
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        out.push(textRun(node.value.replace(/\n/g, ' '), style))
        break
      case 'strong':
        append(out, inlines(node.children, ctx, { ...style, bold: true }))
        break
      case 'emphasis':
        append(out, inlines(node.children, ctx, { ...style, italics: true }))
        break
      case 'delete':
        append(out, inlines(node.children, ctx, { ...style, strike: true }))
        break
      case 'inlineCode':
        out.push(textRun(node.value, { ...style, code: true }))
        break
      case 'break':
        out.push(new TextRun({ text: '', break: 1 }))
        break
      case 'link': {
        const children = inlines(node.children, ctx, { ...style, link: true })
        if (node.url.startsWith('#')) out.push(new InternalHyperlink({ anchor: node.url.slice(1), children }))
        else if (SAFE_URL.test(node.url)) out.push(new ExternalHyperlink({ link: node.url, children }))
        else append(out, inlines(node.children, ctx, style))
        break
      }
      case 'image':
        out.push(imageRun(node, ctx))
        break
      case 'footnoteReference': {
        const id = ctx.footnotes.get(node.identifier)
        if (id !== undefined) out.push(new FootnoteReferenceRun(id))
        else out.push(textRun(`[^${node.label ?? node.identifier}]`, style))
        break
      }
      case 'html':
        // Raw HTML is not copied into documents (the PDF drops it too).
        break
      default:
        if ('children' in node) append(out, inlines(node.children as PhrasingContent[], ctx, style))
        else if ('value' in node) out.push(textRun(String(node.value), style))
    }
  }
  return out
}
