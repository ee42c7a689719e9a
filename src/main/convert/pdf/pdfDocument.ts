import { FormatProblem } from '../errors'
import { copyIn } from './heap'
import type { Pdfium } from './pdfium'
import { PdfiumError, type Ptr } from './pdfiumExports'

/** An open document and the engine memory holding its bytes (PDFium reads them until it is closed). */
export interface PdfDocument {
  handle: Ptr
  pageCount: number
  bytes: Ptr
}

/** Opens `bytes` in the engine; encrypted and unreadable files are FormatProblems. */
export function openPdf(engine: Pdfium, bytes: Uint8Array): PdfDocument {
  const { x, heap } = engine
  const data = copyIn(x, heap, bytes)
  if (!data) throw new FormatProblem('too_large', 'the PDF is too large for the PDF engine to load')
  const handle = x.FPDF_LoadMemDocument(data, bytes.length, 0)
  if (!handle) {
    const code = x.FPDF_GetLastError()
    x.free(data)
    if (code === PdfiumError.password || code === PdfiumError.security)
      throw new FormatProblem('encrypted', 'the PDF is password-protected')
    throw new FormatProblem('damaged', 'the PDF structure is invalid or truncated')
  }
  return { handle, pageCount: Math.max(0, x.FPDF_GetPageCount(handle)), bytes: data }
}

export function closePdf(engine: Pdfium, document: PdfDocument): void {
  if (engine.broken) return
  engine.x.FPDF_CloseDocument(document.handle)
  engine.x.free(document.bytes)
}

const TITLE_TAG = new TextEncoder().encode('Title\0')

/** The document information's Title (UTF-16LE from PDFium), or undefined. */
export function documentTitle(engine: Pdfium, document: PdfDocument): string | undefined {
  const { x, heap } = engine
  const tag = copyIn(x, heap, TITLE_TAG)
  if (!tag) return undefined
  let buffer = 0
  try {
    const length = x.FPDF_GetMetaText(document.handle, tag, 0, 0)
    // Two bytes is the terminator alone: no title.
    if (length <= 2) return undefined
    buffer = x.malloc(length)
    if (!buffer) return undefined
    x.FPDF_GetMetaText(document.handle, tag, buffer, length)
    const bytes = heap.u8().subarray(buffer, buffer + length - 2)
    return new TextDecoder('utf-16le').decode(bytes)
  } finally {
    if (buffer) x.free(buffer)
    x.free(tag)
  }
}
