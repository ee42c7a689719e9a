import { encode as encodePng } from 'fast-png'
import { encode as encodeJpeg } from 'jpeg-js'
import { AppError } from '../../../shared/errors'
import { FormatProblem } from '../errors'
import { type DecodedImage, fromBitmap } from './pageImage'
import { closePdf, openPdf, type PdfDocument } from './pdfDocument'
import { acquirePdfium, holding, type Pdfium, releasePdfium } from './pdfium'
import { RenderFlag } from './pdfiumExports'

export type PageImageFormat = 'png' | 'jpeg'

export const PAGE_IMAGE_LIMITS = {
  minDpi: 18,
  maxDpi: 600,
  /** Pixels of one page image: A4 at 600 dpi (~35 million) fits, a poster at 600 dpi does not. */
  maxPixels: 40_000_000,
  /** Either side of one page image. */
  maxSide: 20_000,
  /** Pages one call renders. */
  maxPages: 300,
} as const

const JPEG_QUALITY = 90
const POINTS_PER_INCH = 72

export interface RenderedPage {
  /** 1-based page number. */
  page: number
  width: number
  height: number
  bytes: Uint8Array
}

function encode(image: DecodedImage, format: PageImageFormat): Uint8Array {
  if (format === 'png')
    return encodePng({
      width: image.width,
      height: image.height,
      data: image.data,
      channels: image.channels,
      depth: 8,
    })
  const rgba = new Uint8Array(image.width * image.height * 4)
  for (let from = 0, to = 0; from < image.data.length; from += 3, to += 4) {
    rgba[to] = image.data[from] as number
    rgba[to + 1] = image.data[from + 1] as number
    rgba[to + 2] = image.data[from + 2] as number
    rgba[to + 3] = 255
  }
  return new Uint8Array(
    encodeJpeg({ width: image.width, height: image.height, data: rgba }, JPEG_QUALITY).data,
  )
}

interface Planned {
  page: number
  width: number
  height: number
}

function pageSize(engine: Pdfium, document: PdfDocument, page: number, dpi: number): Planned {
  const { x } = engine
  const handle = x.FPDF_LoadPage(document.handle, page - 1)
  if (!handle) throw new FormatProblem('damaged', `page ${page} of the PDF cannot be read`)
  return holding(
    engine,
    () => {
      const scale = dpi / POINTS_PER_INCH
      return {
        page,
        width: Math.max(1, Math.round(x.FPDF_GetPageWidthF(handle) * scale)),
        height: Math.max(1, Math.round(x.FPDF_GetPageHeightF(handle) * scale)),
      }
    },
    () => x.FPDF_ClosePage(handle),
  )
}

function renderPage(engine: Pdfium, document: PdfDocument, planned: Planned): DecodedImage {
  const { x } = engine
  const handle = x.FPDF_LoadPage(document.handle, planned.page - 1)
  if (!handle) throw new FormatProblem('damaged', `page ${planned.page} of the PDF cannot be read`)
  return holding(
    engine,
    () => {
      const bitmap = x.FPDFBitmap_Create(planned.width, planned.height, 0)
      if (!bitmap)
        throw new AppError(
          'TOO_LARGE',
          `page ${planned.page} is too large to render at this dpi; choose a lower dpi`,
        )
      return holding(
        engine,
        () => {
          // White paper under the page: PDF pages are transparent, and a viewer shows them on white.
          x.FPDFBitmap_FillRect(bitmap, 0, 0, planned.width, planned.height, 0xffffffff)
          x.FPDF_RenderPageBitmap(
            bitmap,
            handle,
            0,
            0,
            planned.width,
            planned.height,
            0,
            RenderFlag.annotations,
          )
          const image = fromBitmap(engine, bitmap)
          if (!image) throw new FormatProblem('failed', `page ${planned.page} could not be rendered`)
          return image
        },
        () => x.FPDFBitmap_Destroy(bitmap),
      )
    },
    () => x.FPDF_ClosePage(handle),
  )
}

function checkPlan(planned: Planned, dpi: number): void {
  const { maxSide, maxPixels } = PAGE_IMAGE_LIMITS
  if (planned.width > maxSide || planned.height > maxSide || planned.width * planned.height > maxPixels)
    throw new AppError(
      'TOO_LARGE',
      `Page ${planned.page} at ${dpi} dpi would be ${planned.width}×${planned.height} pixels; ` +
        `the limit is ${maxSide} pixels a side and ${maxPixels / 1_000_000} million pixels. Choose a lower dpi.`,
    )
}

function failure(error: unknown): never {
  if (error instanceof FormatProblem)
    throw new AppError(
      error.failure === 'encrypted' || error.failure === 'unsupported' ? 'UNSUPPORTED' : 'VALIDATION_FAILED',
      `The PDF cannot be rendered: ${error.message}.`,
      { cause: error },
    )
  throw error
}

/**
 * Renders PDF pages to images with PDFium (the engine the converter reads PDFs with). Every page number
 * and every page's pixel size is checked before the first page is drawn, so bad input renders nothing.
 */
export async function renderPdfPages(
  pdf: Uint8Array,
  options: {
    pages?: readonly number[] | undefined
    dpi: number
    format: PageImageFormat
    signal?: AbortSignal
    /** One picture is wanted: without `pages`, a PDF of more than one page is an error. */
    onePage?: boolean
  },
): Promise<{ pageCount: number; pages: RenderedPage[] }> {
  const { dpi, format } = options
  if (!Number.isFinite(dpi) || dpi < PAGE_IMAGE_LIMITS.minDpi || dpi > PAGE_IMAGE_LIMITS.maxDpi)
    throw new AppError(
      'VALIDATION_FAILED',
      `dpi must be between ${PAGE_IMAGE_LIMITS.minDpi} and ${PAGE_IMAGE_LIMITS.maxDpi} (150 is a good screen size).`,
    )
  const engine = await acquirePdfium()
  try {
    let document: PdfDocument
    try {
      document = openPdf(engine, pdf)
    } catch (error) {
      failure(error)
    }
    try {
      const { pageCount } = document
      if (pageCount === 0) throw new AppError('VALIDATION_FAILED', 'The PDF has no pages.')
      const wanted = options.pages?.length
        ? [...new Set(options.pages)]
        : Array.from({ length: pageCount }, (_, i) => i + 1)
      const outside = wanted.filter((page) => !Number.isInteger(page) || page < 1 || page > pageCount)
      if (outside.length)
        throw new AppError(
          'VALIDATION_FAILED',
          `The PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}; page ${outside.join(', ')} ${outside.length === 1 ? 'does' : 'do'} not exist.`,
        )
      if (options.onePage && wanted.length !== 1)
        throw new AppError(
          'VALIDATION_FAILED',
          `The PDF has ${pageCount} pages and one picture is asked for; pass the page (pages: [n]) or a folder as "to".`,
        )
      if (wanted.length > PAGE_IMAGE_LIMITS.maxPages)
        throw new AppError(
          'TOO_LARGE',
          `${wanted.length} pages asked for; at most ${PAGE_IMAGE_LIMITS.maxPages} are rendered in one call (pass pages).`,
        )
      const plan = wanted.map((page) => pageSize(engine, document, page, dpi))
      for (const planned of plan) checkPlan(planned, dpi)
      const pages: RenderedPage[] = []
      for (const planned of plan) {
        options.signal?.throwIfAborted()
        const image = renderPage(engine, document, planned)
        pages.push({
          page: planned.page,
          width: image.width,
          height: image.height,
          bytes: encode(image, format),
        })
        // Lets a cancel and other work through between pages.
        await new Promise((resolve) => setImmediate(resolve))
      }
      return { pageCount, pages }
    } catch (error) {
      failure(error)
    } finally {
      closePdf(engine, document)
    }
  } finally {
    releasePdfium(engine)
  }
}
