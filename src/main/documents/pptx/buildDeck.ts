import PptxGenJS from 'pptxgenjs'
import type { DocumentAssets } from '../markdown/assets'
import type { SlideOutline, Visual } from './outline'

export type DeckSize = '16:9' | '4:3'
const SIZES: Record<DeckSize, { width: number; height: number }> = {
  '16:9': { width: 13.333, height: 7.5 },
  '4:3': { width: 10, height: 7.5 },
}
const MARGIN = 0.5
const TITLE_HEIGHT = 1.1

export interface SlidePlan {
  title: string
  layout: string
  contents: string[]
}

interface Placed {
  data: string
  w: number
  h: number
  label: string
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  svg: 'image/svg+xml',
  webp: 'image/webp',
}

/** A picture for the slide: a workspace image or a drawn diagram as PNG; undefined when it failed. */
function picture(visual: Visual, assets: DocumentAssets): Placed | undefined {
  if (visual.kind === 'image') {
    const image = assets.images.get(visual.node)
    if (!image) return undefined
    return {
      data: `${MIME[image.type]};base64,${Buffer.from(image.bytes).toString('base64')}`,
      w: image.width,
      h: image.height,
      label: `image ${visual.node.url}`,
    }
  }
  if (visual.kind === 'diagram') {
    const drawn = assets.diagrams.get(visual.node)
    if (!drawn?.ok || !drawn.png) return undefined
    return {
      data: `image/png;base64,${Buffer.from(drawn.png).toString('base64')}`,
      w: drawn.width,
      h: drawn.height,
      label: 'diagram',
    }
  }
  return undefined
}

/** Fits w×h into the box, centred, keeping the aspect ratio. */
function fitInto(w: number, h: number, box: { x: number; y: number; w: number; h: number }) {
  const scale = Math.min(box.w / w, box.h / h)
  return {
    x: box.x + (box.w - w * scale) / 2,
    y: box.y + (box.h - h * scale) / 2,
    w: w * scale,
    h: h * scale,
  }
}

/**
 * The deck as pptxgenjs writes it: per slide a title box (named "Title"), the bullets, and the tables and
 * pictures beside them (or filling the slide when there is no text), speaker notes as notes.
 */
export async function buildDeck(
  slides: SlideOutline[],
  assets: DocumentAssets,
  options: { size: DeckSize | { width: number; height: number }; title?: string | undefined },
): Promise<{ bytes: Uint8Array; plans: SlidePlan[]; warnings: string[] }> {
  const pptx = new PptxGenJS()
  const size = typeof options.size === 'string' ? SIZES[options.size] : options.size
  pptx.defineLayout({ name: 'BUREAU', width: size.width, height: size.height })
  pptx.layout = 'BUREAU'
  if (options.title) pptx.title = options.title
  const plans: SlidePlan[] = []
  const warnings: string[] = []
  for (const [index, outline] of slides.entries()) {
    const slide = pptx.addSlide()
    const contents: string[] = []
    const onlyTitle = outline.bullets.length === 0 && outline.visuals.length === 0
    slide.addText(outline.title || ' ', {
      objectName: 'Title',
      x: MARGIN,
      y: onlyTitle ? size.height / 2 - TITLE_HEIGHT : MARGIN / 2,
      w: size.width - 2 * MARGIN,
      h: TITLE_HEIGHT,
      fontSize: onlyTitle ? 40 : 30,
      bold: true,
      align: onlyTitle ? 'center' : 'left',
      valign: 'middle',
    })
    const body = { x: MARGIN, y: MARGIN / 2 + TITLE_HEIGHT + 0.1, w: size.width - 2 * MARGIN, h: 0 }
    body.h = size.height - body.y - MARGIN
    const visuals = outline.visuals
    const textBox = visuals.length > 0 && outline.bullets.length > 0 ? { ...body, w: body.w * 0.45 } : body
    if (outline.bullets.length > 0) {
      slide.addText(
        outline.bullets.map((b) => ({
          text: b.text,
          options: {
            ...(b.plain ? {} : { bullet: { indent: 18 }, indentLevel: b.level }),
            bold: b.bold,
            breakLine: true,
          },
        })),
        { ...textBox, fontSize: outline.bullets.length > 8 ? 16 : 20, valign: 'top', objectName: 'Body' },
      )
      contents.push(`${outline.bullets.length} line(s) of text`)
    }
    const area = outline.bullets.length > 0 ? { ...body, x: body.x + body.w * 0.5, w: body.w * 0.5 } : body
    const slot = { ...area, h: visuals.length > 0 ? area.h / visuals.length : area.h }
    for (const [v, visual] of visuals.entries()) {
      const box = { ...slot, y: area.y + v * slot.h }
      if (visual.kind === 'table') {
        const columns = Math.max(...visual.rows.map((r) => r.length))
        slide.addTable(
          visual.rows.map((row, r) => row.map((text) => ({ text, options: { bold: r === 0 } }))),
          {
            x: box.x,
            y: box.y,
            w: box.w,
            fontSize: visual.rows.length > 10 ? 10 : 14,
            border: { type: 'solid', pt: 1, color: '999999' },
            autoPage: false,
          },
        )
        contents.push(`table ${visual.rows.length}×${columns}`)
        continue
      }
      const placed = picture(visual, assets)
      if (!placed) {
        warnings.push(`Slide ${index + 1}: a ${visual.kind} could not be drawn and was left out.`)
        continue
      }
      slide.addImage({ data: placed.data, ...fitInto(placed.w, placed.h, box) })
      contents.push(placed.label)
    }
    if (outline.notes.trim()) {
      slide.addNotes(outline.notes.trim())
      contents.push('speaker notes')
    }
    const layout = onlyTitle
      ? 'title'
      : outline.bullets.length > 0 && visuals.length > 0
        ? 'title, text and visuals'
        : visuals.length > 0
          ? 'title and visuals'
          : 'title and text'
    plans.push({ title: outline.title, layout, contents })
  }
  const bytes = (await pptx.write({ outputType: 'uint8array' })) as Uint8Array
  return { bytes, plans, warnings }
}
