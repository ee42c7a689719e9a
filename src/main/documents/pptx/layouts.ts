import { type DeckFiles, relationsOf, xmlPart } from './deckXml'

/** What a new slide shows, which decides the layout it takes from the deck. */
export type SlideKind = 'title' | 'section' | 'content' | 'two'

export interface Box {
  x: number
  y: number
  w: number
  h: number
}

export interface Placeholder {
  /** The `p:ph` element's attributes, copied onto the slide's shape so it inherits from this one. */
  attrs: Record<string, string>
  type: string
  box?: Box | undefined
}

export interface DeckLayout {
  part: string
  name: string
  type: string
  title?: Placeholder | undefined
  /** Text and content placeholders (body, object, subtitle), left to right then top to bottom. */
  content: Placeholder[]
}

// Placeholders that hold no slide text of ours: dates, footers, slide numbers, pictures, charts...
const NOT_CONTENT = new Set([
  'title',
  'ctrTitle',
  'dt',
  'ftr',
  'sldNum',
  'hdr',
  'pic',
  'chart',
  'tbl',
  'clipArt',
  'dgm',
  'media',
  'sldImg',
])

function boxOf(shape: Element): Box | undefined {
  const xfrm = shape.getElementsByTagName('a:xfrm')[0]
  const off = xfrm?.getElementsByTagName('a:off')[0]
  const ext = xfrm?.getElementsByTagName('a:ext')[0]
  if (!off || !ext) return undefined
  const box = {
    x: Number(off.getAttribute('x')),
    y: Number(off.getAttribute('y')),
    w: Number(ext.getAttribute('cx')),
    h: Number(ext.getAttribute('cy')),
  }
  return Object.values(box).every(Number.isFinite) && box.w > 0 && box.h > 0 ? box : undefined
}

function placeholders(doc: Document): Placeholder[] {
  const out: Placeholder[] = []
  for (const shape of Array.from(doc.getElementsByTagName('p:sp'))) {
    const ph = shape.getElementsByTagName('p:ph')[0]
    if (!ph) continue
    const attrs: Record<string, string> = {}
    for (const attr of Array.from(ph.attributes)) attrs[attr.name] = attr.value
    // A p:ph without a type is an object (content) placeholder.
    out.push({ attrs, type: attrs.type ?? 'obj', box: boxOf(shape) })
  }
  return out
}

/** Where a master's placeholder of the same kind sits, for a layout placeholder that inherits its place. */
const masterKind = (type: string) => (type === 'ctrTitle' || type === 'title' ? 'title' : 'body')

/** The layouts of every slide master of the deck, in the masters' order, with their placeholders. */
export function deckLayouts(files: DeckFiles, path: string): DeckLayout[] {
  const layouts: DeckLayout[] = []
  const masters = relationsOf(files, 'ppt/presentation.xml', path).filter((r) =>
    r.type.endsWith('/slideMaster'),
  )
  for (const master of masters) {
    if (!files[master.target]) continue
    const masterPhs = placeholders(xmlPart(files, master.target, path))
    const inherited = (type: string) => masterPhs.find((p) => masterKind(p.type) === masterKind(type))?.box
    for (const rel of relationsOf(files, master.target, path)) {
      if (!rel.type.endsWith('/slideLayout') || !files[rel.target]) continue
      const doc = xmlPart(files, rel.target, path)
      const phs = placeholders(doc).map((p) => ({ ...p, box: p.box ?? inherited(p.type) }))
      const content = phs
        .filter((p) => !NOT_CONTENT.has(p.type))
        .sort((a, b) => (a.box?.x ?? 0) - (b.box?.x ?? 0) || (a.box?.y ?? 0) - (b.box?.y ?? 0))
      layouts.push({
        part: rel.target,
        name:
          doc.getElementsByTagName('p:cSld')[0]?.getAttribute('name') || rel.target.split('/').pop() || '',
        type: doc.documentElement.getAttribute('type') ?? '',
        title: phs.find((p) => p.type === 'title' || p.type === 'ctrTitle'),
        content,
      })
    }
  }
  return layouts
}

const byType = (layouts: DeckLayout[], type: string) => layouts.find((l) => l.type === type)
const byName = (layouts: DeckLayout[], pattern: RegExp) => layouts.find((l) => pattern.test(l.name))

/**
 * The layout for a kind of slide: by the layout's type as PowerPoint and LibreOffice write it, else by its
 * name (decks written by other tools name their layouts but leave the type out), else a layout with a title
 * and a content placeholder, else the first one.
 */
export function pickLayout(layouts: DeckLayout[], kind: SlideKind): DeckLayout | undefined {
  const withText = layouts.find((l) => l.title && l.content.length > 0)
  const content =
    byType(layouts, 'obj') ??
    byName(layouts, /title,? (and )?content|^content/i) ??
    byType(layouts, 'tx') ??
    byName(layouts, /title and (text|body)/i) ??
    withText ??
    layouts[0]
  switch (kind) {
    case 'title':
      return byType(layouts, 'title') ?? byName(layouts, /title slide|^title$/i) ?? content
    case 'section':
      return (
        byType(layouts, 'secHead') ??
        byName(layouts, /section/i) ??
        byType(layouts, 'titleOnly') ??
        byName(layouts, /title only/i) ??
        content
      )
    case 'two': {
      const two =
        byType(layouts, 'twoObj') ??
        byType(layouts, 'twoTxTwoObj') ??
        byName(layouts, /two content|2 content|two column|comparison/i)
      return two && two.content.length >= 2 ? two : content
    }
    case 'content':
      return content
  }
}
