import {
  AlignmentType,
  Document,
  Footer,
  HeadingLevel,
  InternalHyperlink,
  LevelFormat,
  Packer,
  PageNumber,
  Paragraph,
  TextRun,
} from 'docx'
import type { FootnoteDefinition, Root } from 'mdast'
import type { DocumentAssets } from '../markdown/assets'
import { collect, headingIds, isHeading, textOf } from '../markdown/parseMarkdown'
import { block } from './blocks'
import { type DocxContext, FONTS } from './docxContext'

export interface DocxOptions {
  title?: string
  toc: boolean
  /** styles.xml of a template document, whose styles replace the built-in ones. */
  templateStyles?: string
}

export interface DocxBuild {
  bytes: Uint8Array
  counts: DocxContext['counts'] & { footnotes: number }
  warnings: string[]
}

const ORDERED = [LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER, LevelFormat.LOWER_ROMAN] as const
const BULLETS = ['•', '◦', '▪'] as const

function numberingConfig(lists: DocxContext['lists']) {
  return lists.map(({ reference, ordered, start }) => ({
    reference,
    levels: Array.from({ length: 9 }, (_, level) => ({
      level,
      format: ordered ? ORDERED[level % 3] : LevelFormat.BULLET,
      text: ordered ? `%${level + 1}.` : BULLETS[level % 3],
      start: ordered ? start : 1,
      alignment: AlignmentType.LEFT,
      style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
    })),
  }))
}

function footnoteDefinitions(root: Root, ctx: DocxContext) {
  const definitions = collect(root, (node): node is FootnoteDefinition => node.type === 'footnoteDefinition')
  const footnotes: Record<number, { children: Paragraph[] }> = {}
  for (const [index, definition] of definitions.entries()) ctx.footnotes.set(definition.identifier, index + 1)
  definitions.forEach((definition, index) => {
    const paragraphs = definition.children
      .flatMap((child) => block(child, ctx))
      .filter((b) => b instanceof Paragraph)
    footnotes[index + 1] = { children: paragraphs.length > 0 ? paragraphs : [new Paragraph('')] }
  })
  return footnotes
}

function tableOfContents(ctx: DocxContext): Paragraph[] {
  const entries = [...ctx.headingIds].filter(([heading]) => heading.depth <= 3)
  return [
    new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Contents')] }),
    ...entries.map(
      ([heading, id]) =>
        new Paragraph({
          indent: { left: 360 * (heading.depth - 1) },
          children: [
            new InternalHyperlink({
              anchor: id,
              children: [new TextRun({ text: textOf(heading), style: 'Hyperlink' })],
            }),
          ],
        }),
    ),
  ]
}

const pageFooter = () =>
  new Footer({
    children: [
      new Paragraph({
        alignment: AlignmentType.CENTER,
        children: [new TextRun({ children: [PageNumber.CURRENT, ' / ', PageNumber.TOTAL_PAGES], size: 16 })],
      }),
    ],
  })

/** A Word document from the Markdown tree: real headings, numbered lists, tables, footnotes and pictures. */
export async function buildDocx(
  root: Root,
  assets: DocumentAssets,
  options: DocxOptions,
): Promise<DocxBuild> {
  const ctx: DocxContext = {
    assets,
    headingIds: headingIds(collect(root, isHeading)),
    footnotes: new Map(),
    lists: [],
    counts: { tables: 0, diagrams: 0, images: 0, headings: 0 },
    warnings: [...assets.warnings],
    rawHtmlBlocks: 0,
  }
  const footnotes = footnoteDefinitions(root, ctx)
  const body = root.children.flatMap((node) => block(node, ctx))
  if (ctx.rawHtmlBlocks > 0)
    ctx.warnings.push(
      `raw HTML in the Markdown (${ctx.rawHtmlBlocks} block${ctx.rawHtmlBlocks === 1 ? '' : 's'}) is written as plain text in the DOCX: its text is kept, its layout (alignment, tables, formatting) is not`,
    )
  const head: Paragraph[] = []
  if (options.title)
    head.push(new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(options.title)] }))
  if (options.toc) for (const entry of tableOfContents(ctx)) head.push(entry)
  const document = new Document({
    creator: 'Bureau',
    title: options.title ?? '',
    ...(options.templateStyles ? { externalStyles: options.templateStyles } : {}),
    styles: {
      default: {
        document: {
          run: {
            font: { ascii: FONTS.body, hAnsi: FONTS.body, eastAsia: FONTS.eastAsia, cs: FONTS.complex },
            size: 22,
          },
        },
        heading1: { run: { font: FONTS.heading, size: 32, bold: true } },
        heading2: { run: { font: FONTS.heading, size: 26, bold: true } },
        heading3: { run: { font: FONTS.heading, size: 24, bold: true } },
      },
    },
    numbering: { config: numberingConfig(ctx.lists) },
    footnotes,
    sections: [
      {
        properties: { page: { margin: { top: 1134, bottom: 1134, left: 1134, right: 1134 } } },
        footers: { default: pageFooter() },
        children: [...head, ...body],
      },
    ],
  })
  const bytes = new Uint8Array(await Packer.toBuffer(document))
  return {
    bytes,
    counts: { ...ctx.counts, footnotes: Object.keys(footnotes).length },
    warnings: ctx.warnings,
  }
}
