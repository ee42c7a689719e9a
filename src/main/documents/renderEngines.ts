import { AppError } from '../../shared/errors'
import type { DocumentCounts, DocumentSource, EngineEnv, RenderedDocument } from './documentTypes'
import { MAX_MARKDOWN_CHARS } from './documentTypes'
import { buildDocx } from './docx/buildDocx'
import { readTemplateStyles } from './docx/templateStyles'
import { documentHtml } from './html/toHtml'
import { type DocumentAssets, prepareAssets } from './markdown/assets'
import { estimateBlocks, estimateNesting, MAX_BLOCKS, MAX_NESTING } from './markdown/blockCount'
import { collect, isMermaid, parseMarkdown } from './markdown/parseMarkdown'
import { countPdfPages, printPdf } from './pdf/printPdf'

function parse(source: DocumentSource) {
  if (source.markdown.length > MAX_MARKDOWN_CHARS)
    throw new AppError(
      'TOO_LARGE',
      `The Markdown is longer than ${MAX_MARKDOWN_CHARS} characters; split the document.`,
    )
  const blocks = estimateBlocks(source.markdown)
  if (blocks > MAX_BLOCKS)
    throw new AppError(
      'TOO_LARGE',
      `The Markdown has about ${blocks.toLocaleString('en-US')} blocks (paragraphs, headings, list items, table rows); one document holds at most ${MAX_BLOCKS.toLocaleString('en-US')} (about 1,800 pages). Split it into several documents.`,
    )
  const nesting = estimateNesting(source.markdown)
  if (nesting > MAX_NESTING)
    throw new AppError(
      'TOO_LARGE',
      `The Markdown nests quotes or lists more than ${MAX_NESTING} levels deep; flatten them.`,
    )
  return parseMarkdown(source.markdown)
}

const countTables = (root: ReturnType<typeof parseMarkdown>) =>
  collect(root, (n): n is Extract<typeof n, { type: 'table' }> => n.type === 'table').length

function countsOf(root: ReturnType<typeof parseMarkdown>, assets: DocumentAssets): DocumentCounts {
  const drawn = [...assets.diagrams.values()]
  return {
    headings: collect(root, (n): n is Extract<typeof n, { type: 'heading' }> => n.type === 'heading').length,
    tables: countTables(root),
    diagrams: drawn.filter((d) => d.ok).length,
    diagrams_failed: drawn.filter((d) => !d.ok).length,
    images: assets.images.size,
  }
}

export async function renderPdf(
  source: DocumentSource,
  env: EngineEnv,
  layout: { pageSize: string; margins: string },
): Promise<RenderedDocument> {
  const root = parse(source)
  const assets = await prepareAssets(root, { ...env, baseDir: source.baseDir ?? '/', png: false })
  const warnings = [...assets.warnings]
  const html = documentHtml(
    root,
    assets,
    { title: source.title, toc: source.toc ?? false, ...layout },
    warnings,
  )
  const bytes = await printPdf(env.browser, html)
  return {
    bytes,
    pages: countPdfPages(bytes),
    counts: countsOf(root, assets),
    warnings,
  }
}

/** The Markdown laid out as one screen page (the print page's HTML and styles, no page size): for images. */
export async function markdownPageHtml(
  source: DocumentSource,
  env: EngineEnv,
): Promise<{ html: string; counts: DocumentCounts; warnings: string[] }> {
  const root = parse(source)
  const assets = await prepareAssets(root, { ...env, baseDir: source.baseDir ?? '/', png: false })
  const warnings = [...assets.warnings]
  const html = documentHtml(
    root,
    assets,
    { title: source.title, toc: source.toc ?? false, pageSize: 'A4', margins: '0' },
    warnings,
  )
  return {
    html,
    counts: countsOf(root, assets),
    warnings,
  }
}

export async function renderDocx(
  source: DocumentSource & { template?: string | undefined },
  env: EngineEnv,
): Promise<RenderedDocument> {
  const root = parse(source)
  const assets = await prepareAssets(root, { ...env, baseDir: source.baseDir ?? '/', png: true })
  const templateStyles = source.template
    ? await readTemplateStyles(source.template, env.workspace)
    : undefined
  const built = await buildDocx(root, assets, {
    title: source.title,
    toc: source.toc ?? false,
    templateStyles,
  })
  return {
    bytes: built.bytes,
    counts: {
      headings: built.counts.headings,
      tables: built.counts.tables,
      diagrams: built.counts.diagrams,
      diagrams_failed: collect(root, isMermaid).length - built.counts.diagrams,
      images: built.counts.images,
    },
    warnings: built.warnings,
  }
}
