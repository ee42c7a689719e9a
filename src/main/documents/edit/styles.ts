import { childrenOf } from './xmlScan'

export interface StyleInfo {
  id: string
  type: string
  name: string
  basedOn?: string
  outlineLevel?: number
  start: number
  end: number
}

const valAttribute = (xml: string, element: string) =>
  new RegExp(`<w:${element}\\b[^>]*\\bw:val="([^"]*)"`).exec(xml)?.[1]

/** The styles of a styles.xml by id (empty when the part is absent). */
export function readStyles(xml: string | undefined, part = 'word/styles.xml'): Map<string, StyleInfo> {
  const styles = new Map<string, StyleInfo>()
  if (!xml) return styles
  for (const child of childrenOf(xml, ['w:styles'], part).children) {
    if (child.name !== 'w:style') continue
    const slice = xml.slice(child.start, child.end)
    const outline = valAttribute(slice, 'outlineLvl')
    const basedOn = valAttribute(slice, 'basedOn')
    styles.set(child.attributes['w:styleId'] ?? '', {
      id: child.attributes['w:styleId'] ?? '',
      type: child.attributes['w:type'] ?? 'paragraph',
      name: valAttribute(slice, 'name') ?? '',
      ...(basedOn ? { basedOn } : {}),
      ...(outline !== undefined ? { outlineLevel: Number(outline) } : {}),
      start: child.start,
      end: child.end,
    })
  }
  return styles
}

/**
 * Heading level (1-9) of a paragraph style: Word keeps the English name "heading N" even in localised
 * documents (whose ids differ), else an outline level on the style or the style it is based on.
 */
export function headingLevel(styles: Map<string, StyleInfo>, id: string | undefined): number | undefined {
  const seen = new Set<string>()
  let current = id ? styles.get(id) : undefined
  while (current && !seen.has(current.id)) {
    seen.add(current.id)
    const named = /^heading ([1-9])$/i.exec(current.name)
    if (named) return Number(named[1])
    if (current.outlineLevel !== undefined && current.outlineLevel < 9) return current.outlineLevel + 1
    current = current.basedOn ? styles.get(current.basedOn) : undefined
  }
  if (id && styles.size === 0) {
    const byId = /^Heading([1-9])$/.exec(id)
    if (byId) return Number(byId[1])
  }
  return undefined
}
