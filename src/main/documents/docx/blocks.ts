import {
  AlignmentType,
  Bookmark,
  BorderStyle,
  HeadingLevel,
  ImageRun,
  PageBreak,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx'
import type {
  BlockContent,
  Code,
  DefinitionContent,
  Heading,
  List,
  Table as MdTable,
  RootContent,
} from 'mdast'
import { htmlLines } from '../html/rawHtml'
import { isMermaid, isPageBreak, textOf } from '../markdown/parseMarkdown'
import { type DocxContext, FONTS, fitWidth, startsRightToLeft } from './docxContext'
import { inlines } from './inlines'

type Block = Paragraph | Table
/** A4 less 2 cm margins on each side, in twentieths of a point. */
const CONTENT_WIDTH_TWIPS = 9638
const HEADINGS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
] as const
const ALIGN = { left: AlignmentType.LEFT, center: AlignmentType.CENTER, right: AlignmentType.RIGHT } as const

interface Place {
  /** Blockquote depth: indents and a left rule. */
  quote: number
  list?: { reference: string; level: number; first: boolean }
}

function placement(node: RootContent, place: Place) {
  const rtl = startsRightToLeft(textOf(node))
  return {
    ...(rtl ? { bidirectional: true } : {}),
    ...(place.quote > 0
      ? {
          indent: { left: 567 * place.quote },
          border: { left: { style: BorderStyle.SINGLE, size: 12, color: 'BBBBBB', space: 8 } },
        }
      : {}),
    ...(place.list
      ? place.list.first
        ? { numbering: { reference: place.list.reference, level: place.list.level } }
        : { indent: { left: 720 * (place.list.level + 1) } }
      : {}),
  }
}

function heading(node: Heading, ctx: DocxContext, place: Place): Paragraph {
  ctx.counts.headings += 1
  const runs = inlines(node.children, ctx, { rtl: startsRightToLeft(textOf(node)) })
  const id = ctx.headingIds.get(node)
  return new Paragraph({
    heading: HEADINGS[node.depth - 1],
    children: id ? [new Bookmark({ id, children: runs })] : runs,
    ...placement(node, place),
  })
}

function codeBlock(node: Code, place: Place): Paragraph {
  const lines = node.value.split('\n')
  return new Paragraph({
    ...placement(node, place),
    shading: { fill: 'F4F4F4', type: 'clear', color: 'auto' },
    border: { left: { style: BorderStyle.SINGLE, size: 6, color: 'DDDDDD', space: 4 } },
    children: lines.map(
      (line, i) => new TextRun({ text: line, font: FONTS.mono, size: 19, ...(i > 0 ? { break: 1 } : {}) }),
    ),
  })
}

function diagram(node: Code, ctx: DocxContext, place: Place): Paragraph {
  const drawn = ctx.assets.diagrams.get(node)
  if (!drawn?.ok || !drawn.png) return codeBlock(node, place)
  ctx.counts.diagrams += 1
  return new Paragraph({
    alignment: AlignmentType.CENTER,
    keepLines: true,
    children: [
      new ImageRun({
        type: 'png',
        data: drawn.png,
        transformation: fitWidth(drawn.width, drawn.height),
        altText: { name: `diagram-${ctx.counts.diagrams}`, description: node.value, title: 'Diagram' },
      }),
    ],
  })
}

function table(node: MdTable, ctx: DocxContext): Table {
  ctx.counts.tables += 1
  const columns = node.children.reduce((most, row) => Math.max(most, row.children.length), 1)
  const width = Math.floor(CONTENT_WIDTH_TWIPS / columns)
  return new Table({
    width: { size: width * columns, type: WidthType.DXA },
    columnWidths: Array.from({ length: columns }, () => width),
    rows: node.children.map(
      (row, r) =>
        new TableRow({
          ...(r === 0 && { tableHeader: true }),
          children: Array.from({ length: columns }, (_, c) => {
            const cell = row.children[c]
            const align = node.align?.[c]
            return new TableCell({
              width: { size: width, type: WidthType.DXA },
              ...(r === 0 ? { shading: { fill: 'EEEEEE', type: 'clear', color: 'auto' } } : {}),
              children: [
                new Paragraph({
                  ...(align ? { alignment: ALIGN[align] } : {}),
                  ...(cell && startsRightToLeft(textOf(cell)) ? { bidirectional: true } : {}),
                  children: cell ? inlines(cell.children, ctx, r === 0 ? { bold: true } : {}) : [],
                }),
              ],
            })
          }),
        }),
    ),
  })
}

function list(node: List, ctx: DocxContext, place: Place): Block[] {
  const reference = `list-${ctx.lists.length + 1}`
  ctx.lists.push({ reference, ordered: node.ordered === true, start: node.start ?? 1 })
  const level = place.list ? place.list.level + 1 : 0
  const out: Block[] = []
  for (const item of node.children) {
    item.children.forEach((child, index) => {
      const childPlace: Place = { quote: place.quote, list: { reference, level, first: index === 0 } }
      if (child.type === 'paragraph' && item.checked !== null && item.checked !== undefined && index === 0) {
        const box = new TextRun({ text: item.checked ? '☒ ' : '☐ ' })
        out.push(
          new Paragraph({
            ...placement(child, childPlace),
            children: [box, ...inlines(child.children, ctx)],
          }),
        )
      } else
        out.push(
          ...block(
            child,
            ctx,
            child.type === 'list'
              ? { quote: place.quote, list: { reference, level, first: true } }
              : childPlace,
          ),
        )
    })
  }
  return out
}

/** A raw HTML block as paragraphs of its text (a row's cells joined with ` | `). */
function rawHtml(html: string, ctx: DocxContext, place: Place): Paragraph[] {
  const lines = htmlLines(html)
  if (/<[a-z]/i.test(html)) ctx.rawHtmlBlocks += 1
  return lines.map(
    (line) =>
      new Paragraph({
        ...(startsRightToLeft(line) ? { bidirectional: true } : {}),
        ...(place.quote > 0 ? { indent: { left: 567 * place.quote } } : {}),
        children: [new TextRun(line)],
      }),
  )
}

/** One Markdown block as docx paragraphs and tables. */
export function block(
  node: RootContent | BlockContent | DefinitionContent,
  ctx: DocxContext,
  place: Place = { quote: 0 },
): Block[] {
  if (isPageBreak(node)) return [new Paragraph({ children: [new PageBreak()] })]
  switch (node.type) {
    case 'heading':
      return [heading(node, ctx, place)]
    case 'paragraph':
      return [new Paragraph({ ...placement(node, place), children: inlines(node.children, ctx) })]
    case 'code':
      return [isMermaid(node) ? diagram(node, ctx, place) : codeBlock(node, place)]
    case 'list':
      return list(node, ctx, place)
    case 'table':
      return [table(node, ctx), new Paragraph({ children: [] })]
    case 'blockquote':
      return node.children.flatMap((child) => block(child, ctx, { ...place, quote: place.quote + 1 }))
    case 'thematicBreak':
      return [
        new Paragraph({
          border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: '999999', space: 1 } },
          children: [],
        }),
      ]
    case 'html':
      return rawHtml(node.value, ctx, place)
    case 'footnoteDefinition':
    case 'definition':
    case 'yaml':
      return []
    default:
      return 'children' in node
        ? (node.children as RootContent[]).flatMap((child) => block(child, ctx, place))
        : []
  }
}
