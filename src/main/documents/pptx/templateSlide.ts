import { DOMParser } from '@xmldom/xmldom'
import type { Box, DeckLayout, Placeholder, SlideKind } from './layouts'
import type { Bullet, SlideOutline } from './outline'

const A_NS = 'http://schemas.openxmlformats.org/drawingml/2006/main'
const P_NS = 'http://schemas.openxmlformats.org/presentationml/2006/main'

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The kind of slide an outline slide is, which picks its layout. */
export function slideKind(outline: SlideOutline, first: boolean): SlideKind {
  const text = outline.bullets.length > 0
  const visuals = outline.visuals.length > 0
  if (first && !visuals) return 'title'
  if (!text && !visuals) return 'section'
  return text && visuals ? 'two' : 'content'
}

function paragraphXml(bullet: Bullet): string {
  const props = bullet.plain
    ? '<a:pPr marL="0" indent="0"><a:buNone/></a:pPr>'
    : bullet.level > 0
      ? `<a:pPr lvl="${Math.min(bullet.level, 8)}"/>`
      : ''
  return `<a:p>${props}<a:r><a:rPr lang="en-US" dirty="0"${bullet.bold ? ' b="1"' : ''}/><a:t>${esc(bullet.text)}</a:t></a:r></a:p>`
}

/** A shape that fills the layout's placeholder: no position or style of its own unless `box` is given. */
function placeholderShape(
  id: number,
  name: string,
  ph: Placeholder,
  paragraphs: string,
  box?: Box | undefined,
): string {
  const attrs = Object.entries(ph.attrs)
    .filter(([key]) => key !== 'hasCustomPrompt')
    .map(([key, value]) => ` ${key}="${esc(value)}"`)
    .join('')
  const spPr = box
    ? `<p:spPr><a:xfrm><a:off x="${Math.round(box.x)}" y="${Math.round(box.y)}"/><a:ext cx="${Math.round(box.w)}" cy="${Math.round(box.h)}"/></a:xfrm></p:spPr>`
    : '<p:spPr/>'
  return (
    `<p:sp xmlns:p="${P_NS}" xmlns:a="${A_NS}"><p:nvSpPr><p:cNvPr id="${id}" name="${esc(name)}"/>` +
    `<p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph${attrs}/></p:nvPr></p:nvSpPr>${spPr}` +
    `<p:txBody><a:bodyPr><a:normAutofit/></a:bodyPr><a:lstStyle/>${paragraphs}</p:txBody></p:sp>`
  )
}

const named = (shape: Element) => shape.getElementsByTagName('p:cNvPr')[0]?.getAttribute('name') ?? ''

function child(parent: Element, name: string): Element | undefined {
  for (let node = parent.firstChild; node; node = node.nextSibling)
    if (node.nodeType === 1 && node.nodeName === name) return node as Element
  return undefined
}

/** A picture's or table's offset and extent elements. */
function frameOf(shape: Element): { off: Element; ext: Element } | undefined {
  const xfrm =
    shape.nodeName === 'p:graphicFrame'
      ? child(shape, 'p:xfrm')
      : child(child(shape, 'p:spPr') ?? shape, 'a:xfrm')
  const off = xfrm ? child(xfrm, 'a:off') : undefined
  const ext = xfrm ? child(xfrm, 'a:ext') : undefined
  return off && ext ? { off, ext } : undefined
}

/** Moves and scales the pictures and tables together so that they fill `target`, centred. */
function fitVisuals(visuals: Element[], target: Box): void {
  const frames = visuals.map((v) => ({ shape: v, frame: frameOf(v) }))
  const boxes = frames.flatMap(({ frame }) =>
    frame
      ? [
          {
            x: Number(frame.off.getAttribute('x')),
            y: Number(frame.off.getAttribute('y')),
            w: Number(frame.ext.getAttribute('cx')),
            h: Number(frame.ext.getAttribute('cy')),
          },
        ]
      : [],
  )
  if (boxes.length === 0) return
  const left = Math.min(...boxes.map((b) => b.x))
  const top = Math.min(...boxes.map((b) => b.y))
  const width = Math.max(...boxes.map((b) => b.x + b.w)) - left
  const height = Math.max(...boxes.map((b) => b.y + b.h)) - top
  if (!(width > 0 && height > 0)) return
  const scale = Math.min(target.w / width, target.h / height)
  const dx = target.x + (target.w - width * scale) / 2
  const dy = target.y + (target.h - height * scale) / 2
  const set = (el: Element, name: string, value: number) => el.setAttribute(name, String(Math.round(value)))
  for (const { shape, frame } of frames) {
    if (!frame) continue
    set(frame.off, 'x', dx + (Number(frame.off.getAttribute('x')) - left) * scale)
    set(frame.off, 'y', dy + (Number(frame.off.getAttribute('y')) - top) * scale)
    set(frame.ext, 'cx', Number(frame.ext.getAttribute('cx')) * scale)
    set(frame.ext, 'cy', Number(frame.ext.getAttribute('cy')) * scale)
    for (const col of Array.from(shape.getElementsByTagName('a:gridCol')))
      set(col, 'w', Number(col.getAttribute('w')) * scale)
    for (const row of Array.from(shape.getElementsByTagName('a:tr')))
      set(row, 'h', Number(row.getAttribute('h')) * scale)
  }
}

const leftPart = (box: Box): Box => ({ ...box, w: box.w * 0.48 })
const rightPart = (box: Box): Box => ({ ...box, x: box.x + box.w * 0.52, w: box.w * 0.48 })

/**
 * A slide written by pptxgenjs moved onto one of the deck's layouts: its title and text become shapes that
 * fill the layout's title and body placeholders (so they take the template's fonts, colours and places),
 * its pictures and tables are fitted into the layout's content area. Unchanged when the layout has no
 * title placeholder. Returns whether the slide was moved onto the placeholders.
 */
export function onLayout(
  slide: Document,
  layout: DeckLayout,
  outline: SlideOutline,
  kind: SlideKind,
): boolean {
  if (!layout.title) return false
  const tree = slide.getElementsByTagName('p:spTree')[0]
  if (!tree) return false
  const shapes = Array.from(tree.childNodes).filter((n): n is Element => n.nodeType === 1)
  const generatedTitle = shapes.find((s) => s.nodeName === 'p:sp' && named(s) === 'Title')
  const generatedBody = shapes.find((s) => s.nodeName === 'p:sp' && named(s) === 'Body')
  const visuals = shapes.filter((s) => s.nodeName === 'p:pic' || s.nodeName === 'p:graphicFrame')
  let id = Math.max(
    1,
    ...Array.from(slide.getElementsByTagName('p:cNvPr')).map((c) => Number(c.getAttribute('id')) || 0),
  )
  const body =
    kind === 'title'
      ? (layout.content.find((p) => p.type === 'subTitle') ?? layout.content[0])
      : layout.content[0]
  const parse = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml').documentElement
  const insertAt =
    generatedTitle ?? shapes.find((s) => s.nodeName !== 'p:nvGrpSpPr' && s.nodeName !== 'p:grpSpPr')
  let previous: Node | undefined
  // The new shapes go where the generated title was, in order, before the pictures and tables.
  const add = (xml: string) => {
    const node = slide.importNode(parse(xml), true)
    tree.insertBefore(node, previous ? previous.nextSibling : (insertAt ?? null))
    previous = node
  }
  id += 1
  add(
    placeholderShape(
      id,
      'Title',
      layout.title,
      `<a:p><a:r><a:rPr lang="en-US" dirty="0"/><a:t>${esc(outline.title)}</a:t></a:r></a:p>`,
    ),
  )
  if (generatedTitle) tree.removeChild(generatedTitle)
  const second = layout.content[1]
  if (outline.bullets.length > 0 && body && generatedBody) {
    // With pictures beside the text on a one-content layout, the text keeps the left of the placeholder.
    const ownBox =
      visuals.length > 0 && kind !== 'title' && !(kind === 'two' && second) ? body.box : undefined
    id += 1
    add(
      placeholderShape(
        id,
        'Body',
        body,
        outline.bullets.map(paragraphXml).join(''),
        ownBox ? leftPart(ownBox) : undefined,
      ),
    )
    tree.removeChild(generatedBody)
  }
  const area =
    outline.bullets.length === 0
      ? body?.box
      : kind === 'two' && second
        ? second.box
        : body?.box
          ? rightPart(body.box)
          : undefined
  if (visuals.length > 0 && area) fitVisuals(visuals, area)
  return true
}
