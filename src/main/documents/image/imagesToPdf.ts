import { imageSize } from 'image-size'
import { AppError } from '../../../shared/errors'
import { detectFileKind, type FileKind } from '../../../shared/files'

export const IMAGES_TO_PDF_LIMITS = {
  maxImages: 500,
  maxImageBytes: 50 * 1024 * 1024,
  maxTotalBytes: 300 * 1024 * 1024,
  /** pdf-lib decodes a PNG whole to embed it: a bound on its memory. */
  maxPixels: 100_000_000,
} as const

/** Pixels per inch when the picture does not say (a screen's CSS pixel). */
export const DEFAULT_DPI = 96
const POINTS_PER_INCH = 72

export interface PdfImage {
  /** Agent path, for messages. */
  path: string
  bytes: Uint8Array
}

export interface PlacedImage {
  path: string
  format: 'png' | 'jpeg'
  width: number
  height: number
  dpi: number
}

function u32(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset).getUint32(at)
}

/** The PNG's pHYs chunk in pixels per inch, when it gives metres as its unit. */
function pngDpi(bytes: Uint8Array): number | undefined {
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = u32(bytes, at)
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8))
    if (type === 'pHYs' && length >= 9 && at + 17 <= bytes.length) {
      return bytes[at + 16] === 1 ? u32(bytes, at + 8) * 0.0254 : undefined
    }
    if (type === 'IDAT' || type === 'IEND') return undefined
    at += 12 + length
  }
  return undefined
}

/** The JPEG's JFIF density (APP0) in pixels per inch, when it names a unit. */
function jpegDpi(bytes: Uint8Array): number | undefined {
  if (bytes.length < 18 || bytes[2] !== 0xff || bytes[3] !== 0xe0) return undefined
  if (String.fromCharCode(...bytes.subarray(6, 11)) !== 'JFIF\0') return undefined
  const units = bytes[13]
  const x = ((bytes[14] ?? 0) << 8) | (bytes[15] ?? 0)
  if (units === 1) return x
  if (units === 2) return x * 2.54
  return undefined
}

/** A picture's own resolution when it states a plausible one (scanners do), else DEFAULT_DPI. */
function resolution(kind: 'png' | 'jpeg', bytes: Uint8Array): number {
  const stated = kind === 'png' ? pngDpi(bytes) : jpegDpi(bytes)
  return stated && stated >= 36 && stated <= 2400 ? Math.round(stated) : DEFAULT_DPI
}

function describeKind(kind: FileKind | undefined): string {
  if (!kind) return 'not an image (its first bytes match no picture format)'
  return `a ${kind.toUpperCase()} file`
}

/** Checks every picture before anything is built: its real format (from its bytes), its size. */
export function inspectImages(images: readonly PdfImage[]): PlacedImage[] {
  if (images.length === 0) throw new AppError('VALIDATION_FAILED', 'Give at least one image.')
  if (images.length > IMAGES_TO_PDF_LIMITS.maxImages)
    throw new AppError('TOO_LARGE', `At most ${IMAGES_TO_PDF_LIMITS.maxImages} images go into one PDF.`)
  const total = images.reduce((sum, image) => sum + image.bytes.length, 0)
  if (total > IMAGES_TO_PDF_LIMITS.maxTotalBytes)
    throw new AppError(
      'TOO_LARGE',
      `The images hold ${Math.round(total / 1024 / 1024)} MB together; the limit is ${IMAGES_TO_PDF_LIMITS.maxTotalBytes / 1024 / 1024} MB.`,
    )
  return images.map(({ path, bytes }) => {
    const kind = detectFileKind(bytes)
    if (kind !== 'png' && kind !== 'jpeg')
      throw new AppError(
        'VALIDATION_FAILED',
        `${path} is ${describeKind(kind)}; images_to_pdf takes PNG and JPEG pictures (convert others first).`,
      )
    let size: { width?: number; height?: number }
    try {
      size = imageSize(bytes)
    } catch {
      size = {}
    }
    if (!size.width || !size.height)
      throw new AppError(
        'VALIDATION_FAILED',
        `${path} is a damaged ${kind.toUpperCase()}: its size cannot be read.`,
      )
    if (size.width * size.height > IMAGES_TO_PDF_LIMITS.maxPixels)
      throw new AppError(
        'TOO_LARGE',
        `${path} is ${size.width}×${size.height} pixels; the limit is ${IMAGES_TO_PDF_LIMITS.maxPixels / 1_000_000} million pixels a picture.`,
      )
    return { path, format: kind, width: size.width, height: size.height, dpi: resolution(kind, bytes) }
  })
}

/**
 * One PDF page per picture, each page the picture's size at its own resolution (96 dpi when it states
 * none), the picture filling it. pdf-lib embeds JPEG as it is (no recompression) and PNG losslessly.
 */
export async function imagesToPdf(images: readonly PdfImage[], title?: string): Promise<Uint8Array> {
  const placed = inspectImages(images)
  const { PDFDocument } = await import('pdf-lib')
  const pdf = await PDFDocument.create()
  if (title) pdf.setTitle(title)
  pdf.setProducer('Bureau')
  pdf.setCreator('Bureau')
  for (const [index, image] of placed.entries()) {
    const bytes = (images[index] as PdfImage).bytes
    let embedded: Awaited<ReturnType<typeof pdf.embedPng>>
    try {
      embedded = image.format === 'png' ? await pdf.embedPng(bytes) : await pdf.embedJpg(bytes)
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]
      throw new AppError(
        'VALIDATION_FAILED',
        `${image.path} could not be read as a ${image.format.toUpperCase()}: ${reason}`,
        { cause: error },
      )
    }
    const width = (image.width * POINTS_PER_INCH) / image.dpi
    const height = (image.height * POINTS_PER_INCH) / image.dpi
    const page = pdf.addPage([width, height])
    page.drawImage(embedded, { x: 0, y: 0, width, height })
  }
  return pdf.save()
}

/** Pages and their sizes in points, read from a written PDF. */
export async function readPdfPages(bytes: Uint8Array): Promise<{ width: number; height: number }[]> {
  const { PDFDocument } = await import('pdf-lib')
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false })
  return pdf.getPages().map((page) => page.getSize())
}
