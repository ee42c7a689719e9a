import { childElements, type Element, firstDescendant, localName } from '../xml/parseXml'

export interface Box {
  x: number
  y: number
  w: number
  h: number
}

export interface Placeholder {
  type: string
  idx: string | undefined
}

export interface SlideShape {
  element: Element
  kind: 'text' | 'picture' | 'frame'
  box: Box | undefined
  placeholder: Placeholder | undefined
  /** Position in the document, the tie-breaker for shapes at the same place. */
  order: number
}

type Transform = (box: Box) => Box

const identity: Transform = (box) => box

function readXfrm(properties: Element | undefined): { off: Box; child?: Box } | undefined {
  const xfrm = properties && childElements(properties).find((child) => localName(child) === 'xfrm')
  if (!xfrm) return undefined
  const get = (name: string) => childElements(xfrm).find((child) => localName(child) === name)?.attribs ?? {}
  const off = get('off')
  const ext = get('ext')
  const box = { x: Number(off.x ?? 0), y: Number(off.y ?? 0), w: Number(ext.cx ?? 0), h: Number(ext.cy ?? 0) }
  const chOff = get('chOff')
  const chExt = get('chExt')
  if (chOff.x === undefined) return { off: box }
  return {
    off: box,
    child: { x: Number(chOff.x), y: Number(chOff.y), w: Number(chExt.cx ?? 0), h: Number(chExt.cy ?? 0) },
  }
}

/** Group shapes place children in their own coordinate space; this maps it onto the slide. */
function groupTransform(group: Element, outer: Transform): Transform {
  const properties = childElements(group).find((child) => localName(child) === 'grpSpPr')
  const xfrm = readXfrm(properties)
  if (!xfrm?.child) return outer
  const { off, child } = xfrm
  const sx = child.w ? off.w / child.w : 1
  const sy = child.h ? off.h / child.h : 1
  return (box) =>
    outer({
      x: off.x + (box.x - child.x) * sx,
      y: off.y + (box.y - child.y) * sy,
      w: box.w * sx,
      h: box.h * sy,
    })
}

export function placeholderOf(shape: Element): Placeholder | undefined {
  const ph = firstDescendant(childElements(shape)[0] ?? shape, 'ph')
  return ph ? { type: ph.attribs.type ?? 'body', idx: ph.attribs.idx } : undefined
}

const kinds: Record<string, SlideShape['kind']> = { sp: 'text', pic: 'picture', graphicFrame: 'frame' }

/** Every text, picture and frame shape in a shape tree, groups flattened, with slide coordinates. */
export function collectShapes(tree: Element): SlideShape[] {
  const shapes: SlideShape[] = []
  const visit = (container: Element, transform: Transform) => {
    for (const child of childElements(container)) {
      const name = localName(child)
      if (name === 'grpSp') {
        visit(child, groupTransform(child, transform))
        continue
      }
      if (name === 'AlternateContent') {
        const choice =
          childElements(child).find((option) => localName(option) === 'Choice') ?? childElements(child)[0]
        if (choice) visit(choice, transform)
        continue
      }
      const kind = kinds[name]
      if (!kind) continue
      const properties = childElements(child).find((part) => ['spPr', 'xfrm'].includes(localName(part)))
      const xfrm = localName(properties ?? child) === 'xfrm' ? readXfrm(child) : readXfrm(properties)
      shapes.push({
        element: child,
        kind,
        box: xfrm ? transform(xfrm.off) : undefined,
        placeholder: placeholderOf(child),
        order: shapes.length,
      })
    }
  }
  visit(tree, identity)
  return shapes
}

/** Top-to-bottom, then left-to-right for shapes whose tops are within a band of each other. */
export function readingOrder(shapes: SlideShape[], slideHeight: number): SlideShape[] {
  const band = slideHeight / 40
  const top = (shape: SlideShape) => shape.box?.y ?? Number.MAX_SAFE_INTEGER
  const sorted = [...shapes].sort((a, b) => top(a) - top(b) || a.order - b.order)
  const rows: SlideShape[][] = []
  for (const shape of sorted) {
    const row = rows.at(-1)
    const first = row?.[0]
    if (row && first && Math.abs(top(shape) - top(first)) <= band) row.push(shape)
    else rows.push([shape])
  }
  return rows.flatMap((row) => row.sort((a, b) => (a.box?.x ?? 0) - (b.box?.x ?? 0) || a.order - b.order))
}
