import { FormatProblem } from '../errors'
import { checkpoint } from '../limits'
import type { ConvertContext, FormatOutput } from '../types'
import { pageMarkdown, typeScale } from './blocks'
import { ocrPage } from './ocrPage'
import { closePdf, documentTitle, openPdf, type PdfDocument } from './pdfDocument'
import { acquirePdfium, isEngineFailure, type Pdfium, preloadPdfium, releasePdfium } from './pdfium'
import { type PageText, readPage, scanImage } from './readPage'

/** Starts the PDF engine (a worker warming up for a batch of PDFs); a failed start is reported by the first conversion. */
export function preloadPdf(): void {
  preloadPdfium()
}

/** Producers fill Title with placeholders or the file name; those say nothing. */
function usefulTitle(value: unknown, fileName: string): string | undefined {
  if (typeof value !== 'string') return undefined
  const title = value.trim()
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '')
  if (!title || /^(untitled|\(anonymous\)|anonymous|unknown|none)$/i.test(title) || title === base)
    return undefined
  return title
}

function isTruncated(bytes: Uint8Array): boolean {
  const tail = new TextDecoder('latin1').decode(bytes.subarray(Math.max(0, bytes.length - 2048)))
  return !tail.includes('%%EOF')
}

/** Every page's text; a page that fails is undefined, and after an engine failure so are the rest. */
async function readPages(engine: Pdfium, document: PdfDocument, context: ConvertContext) {
  const pages: (PageText | undefined)[] = []
  for (let index = 0; index < document.pageCount; index++) {
    await checkpoint(context.signal)
    if (engine.broken) {
      pages.push(undefined)
      continue
    }
    try {
      pages.push(readPage(engine, document, index))
    } catch (error) {
      if (context.signal.aborted) throw error
      const rest =
        engine.broken && index + 1 < document.pageCount
          ? '; the PDF engine failed on it, so the pages after it were not read either'
          : ''
      context.warn(`page ${index + 1} could not be read${rest}`)
      pages.push(undefined)
    }
  }
  return pages
}

/** A page without text: the largest image it draws, read by the vision model or OCR. */
async function scannedPage(engine: Pdfium, document: PdfDocument, number: number, context: ConvertContext) {
  await checkpoint(context.signal)
  let scan: ReturnType<typeof scanImage>
  try {
    scan = engine.broken ? undefined : scanImage(engine, document, number - 1)
  } catch (error) {
    if (context.signal.aborted) throw error
    context.warn(`the image of page ${number} could not be read`)
    return undefined
  }
  return scan ? ocrPage(scan, number, context) : undefined
}

async function convertDocument(engine: Pdfium, document: PdfDocument, context: ConvertContext) {
  const pages = await readPages(engine, document, context)
  if (pages.every((page) => page === undefined)) {
    throw new FormatProblem('damaged', 'no page of the PDF could be read; it is damaged or truncated')
  }
  if (isTruncated(context.bytes))
    context.warn('the PDF looks truncated (no end-of-file marker); some content may be missing')
  const scale = typeScale(pages.flatMap((page) => page?.lines ?? []))
  const parts: string[] = []
  for (const [index, page] of pages.entries()) {
    const number = index + 1
    if (pages.length > 1) parts.push(`<!-- Page ${number} -->`)
    if (!page) parts.push(`(page ${number} could not be read)`)
    else if (page.lines.length > 0) parts.push(pageMarkdown(page.lines, scale))
    else {
      const text = await scannedPage(engine, document, number, context)
      if (text) parts.push(text)
    }
  }
  const title = engine.broken ? undefined : usefulTitle(documentTitle(engine, document), context.name)
  const markdown = parts.filter(Boolean).join('\n\n')
  return title ? { markdown, title } : { markdown }
}

/**
 * PDF via PDFium (WebAssembly): text in reading order, headings from the type scale, lists, tables
 * rebuilt from aligned text and from ruling lines, page markers; pages without text go to OCR.
 */
export async function convertPdf(context: ConvertContext): Promise<FormatOutput> {
  const engine = await acquirePdfium()
  try {
    const document = openPdf(engine, context.bytes)
    try {
      return await convertDocument(engine, document, context)
    } catch (error) {
      if (isEngineFailure(error)) engine.broken = true
      throw error
    } finally {
      closePdf(engine, document)
    }
  } catch (error) {
    if (isEngineFailure(error)) engine.broken = true
    if (engine.broken && !(error instanceof FormatProblem) && !context.signal.aborted)
      throw new FormatProblem('damaged', 'the PDF engine failed on this file')
    throw error
  } finally {
    releasePdfium(engine)
  }
}
