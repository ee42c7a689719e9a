import { posix } from 'node:path'
import { FormatProblem } from '../errors'
import { checkpoint } from '../limits'
import type { ConvertContext, FormatOutput } from '../types'
import { childElements, descendants, type Element, firstDescendant, localName, textOf } from '../xml/parseXml'
import { readZip, zipText } from '../zip/readZip'
import { chartMarkdown } from './chart'
import { OpcPackage, relId } from './package'
import { type Box, collectShapes, type Placeholder, readingOrder, type SlideShape } from './shapes'
import { tableMarkdown } from './table'
import { plainText, textBodyMarkdown } from './text'

const imageTypes: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  emf: 'image/emf',
  wmf: 'image/wmf',
}

interface SlideContext {
  pkg: OpcPackage
  path: string
  convert: ConvertContext
}

function isTitle(placeholder: Placeholder | undefined): boolean {
  return placeholder?.type === 'title' || placeholder?.type === 'ctrTitle'
}

/** Placeholders without their own position take it from the matching placeholder on the layout. */
function layoutBoxes(pkg: OpcPackage, slidePath: string): (placeholder: Placeholder) => Box | undefined {
  const layoutPath = pkg.relatedOfType(slidePath, '/slideLayout')
  const layout = layoutPath ? pkg.xml(layoutPath) : undefined
  const tree = layout && firstDescendant(layout, 'spTree')
  const shapes = tree ? collectShapes(tree) : []
  return (placeholder) => {
    const match =
      shapes.find((shape) => placeholder.idx !== undefined && shape.placeholder?.idx === placeholder.idx) ??
      shapes.find((shape) => shape.placeholder?.type === placeholder.type)
    return match?.box
  }
}

function pictureMarkdown(shape: Element, slide: SlideContext): string {
  const properties = firstDescendant(shape, 'cNvPr')
  const alt = (properties?.attribs.descr ?? '').replace(/\s+/g, ' ').replace(/[[\]]/g, '\\$&').trim()
  const blip = firstDescendant(shape, 'blip')
  const rel = blip && slide.pkg.relationships(slide.path).get(relId(blip, 'embed') ?? '')
  const name = `${(properties?.attribs.name ?? 'image').replace(/\W/g, '')}.jpg`
  if (slide.convert.keepDataUris && rel && !rel.external) {
    const data = slide.pkg.files.get(rel.target)
    const type = imageTypes[posix.extname(rel.target).slice(1).toLowerCase()] ?? 'application/octet-stream'
    if (data) return `![${alt}](data:${type};base64,${Buffer.from(data).toString('base64')})`
  }
  return `![${alt}](${name})`
}

function smartArtText(frame: Element, slide: SlideContext): string {
  const relIds = firstDescendant(frame, 'relIds')
  const rel = relIds && slide.pkg.relationships(slide.path).get(relId(relIds, 'dm') ?? '')
  const data = rel ? slide.pkg.xml(rel.target) : undefined
  if (!data) return ''
  return descendants(data, 'pt')
    .map((point) => descendants(point, 't').map(textOf).join('').trim())
    .filter(Boolean)
    .map((line) => `* ${line}`)
    .join('\n')
}

function frameMarkdown(frame: Element, slide: SlideContext): string {
  const table = firstDescendant(frame, 'tbl')
  if (table) return tableMarkdown(table)
  const chart = firstDescendant(frame, 'chart')
  if (chart) {
    const rel = slide.pkg.relationships(slide.path).get(relId(chart, 'id') ?? '')
    const xml = rel && !rel.external ? zipText(slide.pkg.files, rel.target) : undefined
    return xml ? chartMarkdown(xml) : ''
  }
  if (firstDescendant(frame, 'relIds')) return smartArtText(frame, slide)
  return ''
}

function shapeMarkdown(shape: SlideShape, slide: SlideContext): string {
  if (shape.kind === 'picture') return pictureMarkdown(shape.element, slide)
  if (shape.kind === 'frame') return frameMarkdown(shape.element, slide)
  const body = childElements(shape.element).find((child) => localName(child) === 'txBody')
  const bulleted = shape.placeholder?.type === 'body' || shape.placeholder?.type === 'obj'
  return textBodyMarkdown(body, { bulleted: bulleted && shape.placeholder?.idx !== undefined })
}

function notesMarkdown(slide: SlideContext): string {
  const notesPath = slide.pkg.relatedOfType(slide.path, '/notesSlide')
  const notes = notesPath ? slide.pkg.xml(notesPath) : undefined
  const tree = notes && firstDescendant(notes, 'spTree')
  if (!tree) return ''
  return collectShapes(tree)
    .filter((shape) => shape.placeholder?.type === 'body')
    .map((shape) =>
      textBodyMarkdown(
        childElements(shape.element).find((child) => localName(child) === 'txBody'),
        { bulleted: false },
      ),
    )
    .filter(Boolean)
    .join('\n\n')
}

function slideMarkdown(slide: SlideContext, number: number, slideHeight: number): string {
  const document = slide.pkg.xml(slide.path)
  const tree = document && firstDescendant(document, 'spTree')
  if (!tree) return `## Slide ${number}\n\n(slide could not be read)`
  const fromLayout = layoutBoxes(slide.pkg, slide.path)
  const shapes = collectShapes(tree).map((shape) =>
    shape.box || !shape.placeholder ? shape : { ...shape, box: fromLayout(shape.placeholder) },
  )
  const titleShape = shapes.find((shape) => isTitle(shape.placeholder))
  const title = titleShape
    ? plainText(childElements(titleShape.element).find((child) => localName(child) === 'txBody'))
    : ''
  const hidden = childElements(document)[0]?.attribs.show === '0' ? ' (hidden)' : ''
  const parts = [`## Slide ${number}${title ? `: ${title}` : ''}${hidden}`]
  for (const shape of readingOrder(shapes, slideHeight)) {
    if (shape === titleShape) continue
    const markdown = shapeMarkdown(shape, slide)
    if (markdown) parts.push(markdown)
  }
  const notes = notesMarkdown(slide)
  if (notes) parts.push(`### Notes\n\n${notes}`)
  return parts.join('\n\n')
}

/** pptx: per slide a heading, shapes in reading order (groups included), tables, charts, alt text, notes. */
export async function convertPptx(context: ConvertContext): Promise<FormatOutput> {
  const pkg = new OpcPackage(readZip(context.bytes))
  const presentationPath = 'ppt/presentation.xml'
  const presentation = pkg.xml(presentationPath)
  if (!presentation) throw new FormatProblem('damaged', 'the presentation part is missing or damaged')
  const rels = pkg.relationships(presentationPath)
  const slideSize = firstDescendant(presentation, 'sldSz')
  const slideHeight = Number(slideSize?.attribs.cy ?? 6858000)
  const slides = descendants(presentation, 'sldId')
    .map((entry) => rels.get(relId(entry, 'id') ?? '')?.target)
    .filter((path): path is string => Boolean(path))
  const parts: string[] = []
  for (const [index, path] of slides.entries()) {
    await checkpoint(context.signal)
    parts.push(slideMarkdown({ pkg, path, convert: context }, index + 1, slideHeight))
  }
  for (const part of pkg.damaged) context.warn(`${part} is damaged or truncated; its content is missing`)
  const core = pkg.xml('docProps/core.xml')
  const title = core ? textOf(firstDescendant(core, 'title')).trim() : ''
  const markdown = parts.join('\n\n')
  return title ? { markdown, title } : { markdown }
}
