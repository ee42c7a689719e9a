import { posix } from 'node:path'
import { imageSize } from 'image-size'
import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import { detectFileKind, kindOfName } from '../../../shared/files'
import { method, type ToolContext } from '../../tools'
import { PAGE_IMAGE_LIMITS, type PageImageFormat, renderPdfPages } from '../pdf/renderPages'

const MAX_PDF_BYTES = 200 * 1024 * 1024
const EXTENSION: Record<PageImageFormat, string> = { png: '.png', jpeg: '.jpg' }

const PageImage = z.object({
  path: z.string(),
  page: z.number().int(),
  width: z.number().int().describe('Pixels, read back from the written file.'),
  height: z.number().int(),
  format: z.enum(['png', 'jpeg']),
  bytes: z.number().int(),
})

/** The image file as written: its size and format from its own bytes, not from what was meant to be written. */
async function readBack(ctx: ToolContext, path: string, page: number): Promise<z.infer<typeof PageImage>> {
  const bytes = new Uint8Array(await ctx.workspace.readFile(path))
  const kind = detectFileKind(bytes)
  const size = imageSize(bytes)
  if ((kind !== 'png' && kind !== 'jpeg') || !size.width || !size.height)
    throw new AppError('HANDLER_FAILED', `${path} was written but does not read back as an image.`)
  return { path, page, width: size.width, height: size.height, format: kind, bytes: bytes.length }
}

function targets(
  source: string,
  to: string,
  pages: readonly number[],
  format: PageImageFormat | undefined,
): { format: PageImageFormat; paths: string[] } {
  const named = kindOfName(to)
  if (named === 'png' || named === 'jpeg') {
    if (pages.length !== 1)
      throw new AppError(
        'VALIDATION_FAILED',
        `"to" names one image file but ${pages.length} pages are selected; pass one page, or a folder as "to".`,
      )
    if (format && format !== named)
      throw new AppError('VALIDATION_FAILED', `"to" ends in ${posix.extname(to)} but format is ${format}.`)
    return { format: named, paths: [to] }
  }
  if (posix.extname(to) && /^\.[a-z0-9]{2,5}$/i.test(posix.extname(to)))
    throw new AppError(
      'VALIDATION_FAILED',
      `"to" must be a folder or a .png/.jpg file name; ${posix.extname(to)} is not an image format pages are written as.`,
    )
  const chosen = format ?? 'png'
  const stem = posix.basename(source).replace(/\.pdf$/i, '')
  return { format: chosen, paths: pages.map((page) => posix.join(to, `${stem}-${page}${EXTENSION[chosen]}`)) }
}

export const pdfToImages = method({
  description:
    'Renders pages of a workspace PDF to PNG or JPEG images (one file per page) and returns each file with its pixel size, read back from the file. ' +
    '"to" is a folder (files are named <pdf name>-<page>.png) or, for a single page (or a one-page PDF), the image file itself (.png or .jpg).',
  input: z.object({
    path: z.string().min(1).describe('The PDF, e.g. "/inbox/report.pdf".'),
    to: z
      .string()
      .min(1)
      .describe('A folder for the images, or one .png/.jpg file when one page is selected.'),
    pages: z
      .array(z.number().int().min(1))
      .min(1)
      .max(PAGE_IMAGE_LIMITS.maxPages)
      .optional()
      .describe('1-based page numbers; all pages when absent.'),
    dpi: z
      .number()
      .min(PAGE_IMAGE_LIMITS.minDpi)
      .max(PAGE_IMAGE_LIMITS.maxDpi)
      .default(150)
      .describe('Resolution: 72 is the page at its printed size on screen, 150 (default) sharp, 300 print.'),
    format: z.enum(['png', 'jpeg']).optional().describe('Image format in a folder (default png).'),
    overwrite: z.boolean().default(false).describe('Replace existing images (old content is backed up).'),
  }),
  output: z.object({
    path: z.string(),
    pages: z.number().int().describe('Pages in the PDF.'),
    dpi: z.number(),
    images: z.array(PageImage),
  }),
  examples: [
    { path: '/inbox/report.pdf', to: '/inbox/report-pages' },
    {
      args: { path: '/data/poster.pdf', to: '/data/poster.jpg', pages: [1] },
      description: 'page 1 as one JPEG',
    },
  ],
  risk: 'write',
  run: async ({ path, to, pages, dpi, format, overwrite }, ctx) => {
    if (kindOfName(path) !== 'pdf')
      throw new AppError('VALIDATION_FAILED', `${path} is not a .pdf file; pdf_to_images renders PDFs.`)
    const pdf = new Uint8Array(await ctx.workspace.readFile(path, { maxBytes: MAX_PDF_BYTES }))
    if (detectFileKind(pdf) !== 'pdf')
      throw new AppError('VALIDATION_FAILED', `${path} is named .pdf but is not a PDF (no %PDF- header).`)
    const named = kindOfName(to)
    const single = named === 'png' || named === 'jpeg'
    if (single && pages && pages.length !== 1)
      throw new AppError(
        'VALIDATION_FAILED',
        `"to" names one image file; pass exactly one page (pages: [n]) or give a folder as "to".`,
      )
    targets(path, to, pages ?? [1], single ? undefined : format)
    const rendered = await renderPdfPages(pdf, {
      pages,
      dpi,
      format: single ? named : (format ?? 'png'),
      signal: ctx.signal,
      onePage: single,
    })
    const plan = targets(
      path,
      to,
      rendered.pages.map((p) => p.page),
      single ? undefined : format,
    )
    if (!overwrite)
      for (const target of plan.paths)
        if (await ctx.workspace.exists(target))
          throw new AppError(
            'CONFLICT',
            `${target} exists; pass overwrite: true to replace it (a backup is kept). Nothing was written.`,
          )
    const images: z.infer<typeof PageImage>[] = []
    for (const [index, page] of rendered.pages.entries()) {
      const target = plan.paths[index] as string
      const receipt = await ctx.workspace.writeFile(target, page.bytes, {
        overwrite,
        message: `render page ${page.page} of ${path}`,
      })
      images.push(await readBack(ctx, receipt.path, page.page))
    }
    return { path, pages: rendered.pageCount, dpi, images }
  },
})
