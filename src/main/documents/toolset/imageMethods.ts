import { imageSize } from 'image-size'
import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import { detectFileKind, kindOfName } from '../../../shared/files'
import { method, type ToolContext } from '../../tools'
import type { DocumentBrowser } from '../chromium/documentBrowser'
import { dirOf, markdownPageHtml } from '../createDocuments'
import {
  IMAGES_TO_PDF_LIMITS,
  imagesToPdf,
  inspectImages,
  type PdfImage,
  readPdfPages,
} from '../image/imagesToPdf'
import { guardHtml, RENDER_IMAGE_LIMITS, screenHtml, screenshotHtml } from '../image/renderImage'

const Overwrite = z
  .boolean()
  .default(false)
  .describe('Replace an existing file (its old content is backed up).')

const ImageReceipt = z.object({
  path: z.string(),
  format: z.enum(['png', 'jpeg']),
  width: z.number().int().describe('Pixels, read back from the written file.'),
  height: z.number().int(),
  bytes: z.number().int(),
  headings: z.number().int().optional(),
  tables: z.number().int().optional(),
  diagrams: z.number().int().optional(),
  diagrams_failed: z.number().int().optional(),
  images: z.number().int().optional(),
  warnings: z.array(z.string()),
  backup: z.string().optional(),
})

const PdfReceipt = z.object({
  path: z.string(),
  bytes: z.number().int(),
  pages: z.number().int().describe('Pages read back from the written PDF.'),
  images: z.array(
    z.object({
      path: z.string(),
      format: z.enum(['png', 'jpeg']),
      width: z.number().int(),
      height: z.number().int(),
      page_width_pt: z.number().describe('The page, in points (1/72 inch), read back from the PDF.'),
      page_height_pt: z.number(),
    }),
  ),
  backup: z.string().optional(),
})

async function refuseExisting(ctx: ToolContext, path: string, overwrite: boolean): Promise<void> {
  if (!overwrite && (await ctx.workspace.exists(path)))
    throw new AppError('CONFLICT', `${path} exists; pass overwrite: true to replace it (a backup is kept).`)
}

function imageFormatOf(path: string): 'png' | 'jpeg' {
  const kind = kindOfName(path)
  if (kind === 'png' || kind === 'jpeg') return kind
  throw new AppError(
    'VALIDATION_FAILED',
    `The path must end in .png, .jpg or .jpeg (the format comes from it), e.g. /images/summary.png.`,
  )
}

const round = (points: number) => Math.round(points * 100) / 100

export function imageMethods(browserOf: (ctx: ToolContext) => DocumentBrowser) {
  return {
    renderImage: method({
      description:
        'Draws Markdown (with Mermaid diagrams and workspace pictures, like create_pdf) or HTML as one PNG or JPEG picture, ' +
        'the format from the extension of path, `width` pixels wide and as tall as the content. Returns the pixel size read back from the file. ' +
        'Nothing is fetched from the internet and scripts in HTML never run; pictures in HTML must be data: URIs.',
      input: z
        .object({
          path: z.string().min(1).describe('Where to write: .png, .jpg or .jpeg.'),
          markdown: z.string().min(1).optional().describe('GFM Markdown; ```mermaid blocks are drawn.'),
          html: z.string().min(1).optional().describe('A whole HTML page or a fragment, with inline styles.'),
          width: z
            .number()
            .int()
            .min(RENDER_IMAGE_LIMITS.minWidth)
            .max(RENDER_IMAGE_LIMITS.maxWidth)
            .default(800)
            .describe('Width of the picture in pixels (default 800).'),
          title: z.string().max(300).optional().describe('A title drawn above Markdown.'),
          overwrite: Overwrite,
        })
        .refine((args) => (args.markdown === undefined) !== (args.html === undefined), {
          message: 'Give exactly one of markdown or html.',
        }),
      output: ImageReceipt,
      examples: [
        {
          path: '/data/revenues.png',
          markdown: '# Revenues\n\n| Year | Revenue |\n|---|---:|\n| 2023 | 4,200,000 |',
        },
        {
          args: {
            path: '/data/welcome.jpg',
            html: '<h1 style="color:#1a4d8f">Welcome, Bob!</h1>',
            width: 600,
          },
          description: 'a small poster from HTML',
        },
      ],
      risk: 'write',
      run: async ({ path, markdown, html, width, title, overwrite }, ctx) => {
        const format = imageFormatOf(path)
        await refuseExisting(ctx, path, overwrite)
        const browser = browserOf(ctx)
        const page =
          markdown !== undefined
            ? await markdownPageHtml(
                { markdown, title, baseDir: dirOf(path) },
                { browser, workspace: ctx.workspace },
              )
            : undefined
        const pageHtml = page ? screenHtml(page.html) : guardHtml(html ?? '')
        const bytes = await screenshotHtml(browser, pageHtml, { width, format })
        const receipt = await ctx.workspace.writeFile(path, bytes, { overwrite, message: `create ${path}` })
        const written = new Uint8Array(await ctx.workspace.readFile(receipt.path))
        const size = imageSize(written)
        const kind = detectFileKind(written)
        if (kind !== format || !size.width || !size.height)
          throw new AppError(
            'HANDLER_FAILED',
            `${receipt.path} was written but does not read back as a ${format}.`,
          )
        return {
          path: receipt.path,
          format: kind,
          width: size.width,
          height: size.height,
          bytes: written.length,
          ...(page ? page.counts : {}),
          warnings: page?.warnings ?? [],
          ...(receipt.backup ? { backup: receipt.backup } : {}),
        }
      },
    }),
    imagesToPdf: method({
      description:
        'Puts pictures (PNG or JPEG: photos, scans, screenshots) into one PDF, one page per picture in the order given, ' +
        "each page the picture's size (at its own resolution, else 96 dpi). Returns the pages read back from the written PDF.",
      input: z.object({
        path: z.string().min(1).describe('The PDF to write, e.g. /scans/receipts.pdf.'),
        images: z
          .array(z.string().min(1))
          .min(1)
          .max(IMAGES_TO_PDF_LIMITS.maxImages)
          .describe('Workspace paths of the pictures, in page order.'),
        title: z.string().max(300).optional().describe("The PDF's document title."),
        overwrite: Overwrite,
      }),
      output: PdfReceipt,
      examples: [{ path: '/scans/receipts.pdf', images: ['/scans/receipt-1.jpg', '/scans/receipt-2.png'] }],
      risk: 'write',
      run: async ({ path, images, title, overwrite }, ctx) => {
        if (kindOfName(path) !== 'pdf')
          throw new AppError('VALIDATION_FAILED', 'The path must end in .pdf, e.g. /scans/receipts.pdf.')
        await refuseExisting(ctx, path, overwrite)
        const loaded: PdfImage[] = []
        for (const image of images) {
          const bytes = await ctx.workspace.readFile(image, { maxBytes: IMAGES_TO_PDF_LIMITS.maxImageBytes })
          loaded.push({
            path: image,
            bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          })
        }
        const placed = inspectImages(loaded)
        const pdf = await imagesToPdf(loaded, title)
        const receipt = await ctx.workspace.writeFile(path, pdf, { overwrite, message: `create ${path}` })
        const written = new Uint8Array(await ctx.workspace.readFile(receipt.path))
        const pages = await readPdfPages(written)
        if (pages.length !== placed.length)
          throw new AppError(
            'HANDLER_FAILED',
            `${receipt.path} was written with ${pages.length} pages, not ${placed.length}.`,
          )
        return {
          path: receipt.path,
          bytes: written.length,
          pages: pages.length,
          images: placed.map((image, index) => ({
            path: image.path,
            format: image.format,
            width: image.width,
            height: image.height,
            page_width_pt: round(pages[index]?.width ?? 0),
            page_height_pt: round(pages[index]?.height ?? 0),
          })),
          ...(receipt.backup ? { backup: receipt.backup } : {}),
        }
      },
    }),
  }
}
