import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { FormatProblem } from '../errors'
import { checkpoint } from '../limits'
import type { ConvertContext, FormatOutput } from '../types'
import { pageMarkdown, typeScale } from './blocks'
import { inertDocument, skipFontFaceRules } from './inertDocument'
import { importKeepingNatives } from './keepNatives'
import { FastLoopbackPort } from './loopback'
import { ocrPage } from './ocrPage'
import type { DecodedImage } from './pageImage'
import { indexPageTreeOnce } from './pageTreeIndex'
import { type PageText, readPage, scanImage } from './readPage'
import { installSyncInflate } from './syncInflate'
import { importWithoutCanvas } from './withoutCanvas'

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs')

interface WorkerSide {
  WorkerMessageHandler: { initializeFromPort(port: FastLoopbackPort): void }
}

let pdfjs: Promise<PdfJs> | undefined
let workerSide: WorkerSide | undefined

/**
 * pdf.js runs its worker code in this thread (Node has no web workers). It is handed over as
 * `globalThis.pdfjsWorker`, pdf.js's documented hook, instead of pdf.js importing it by file name, so the
 * bundler can put both modules into the build.
 */
async function loadPdfJs(): Promise<PdfJs> {
  installSyncInflate()
  return importKeepingNatives(async () => {
    const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs')
    ;(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker
    workerSide = worker as unknown as WorkerSide
    return importWithoutCanvas(() => import('pdfjs-dist/legacy/build/pdf.mjs'))
  })
}

/**
 * Starts loading pdf.js (a worker warming up for a batch of PDFs); a failed load is reported by the
 * first conversion.
 */
export function preloadPdfJs(): void {
  pdfjs ??= loadPdfJs()
  pdfjs.catch(() => {})
}

function assetsFolder(name: string): string {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))
  return `${pathToFileURL(join(root, name)).pathname}/`
}

/**
 * Text extraction needs neither the standard font programs (glyph widths come from the PDF and pdf.js's
 * built-in metrics) nor decoded images: leaving both out saves most of pdf.js's work on ordinary PDFs.
 * Images are decoded only in a second pass over pages that have no text layer (scans).
 */
async function openDocument(context: ConvertContext, images: boolean): Promise<PDFDocumentProxy> {
  // pdf.js takes ownership of the buffer it is given, so it gets a copy; and it refuses a Node Buffer,
  // whose slice() would still be a Buffer, so the copy is a plain Uint8Array.
  const data = new Uint8Array(context.bytes)
  const promised = indexPageTreeOnce(data)
  const document = await loadDocument(context, data, images)
  if (promised === undefined || document.numPages >= promised) return document
  // The one-pass index stops at a damaged kid, and its page count with it: pdf.js's own walk, slower on
  // a flat tree, reads every page it can instead.
  await document.destroy()
  return loadDocument(context, new Uint8Array(context.bytes), images)
}

async function loadDocument(
  context: ConvertContext,
  data: Uint8Array,
  images: boolean,
): Promise<PDFDocumentProxy> {
  pdfjs ??= loadPdfJs()
  const library = await pdfjs
  const worker = inThreadWorker(library)
  const task = library.getDocument({
    data,
    worker,
    isEvalSupported: false,
    disableFontFace: false,
    ownerDocument: inertDocument as never,
    useSystemFonts: false,
    verbosity: 0,
    // 0 pixels: every image is dropped before it is decoded; -1: no limit.
    maxImageSize: images ? -1 : 0,
    cMapUrl: assetsFolder('cmaps'),
    cMapPacked: true,
  })
  // pdf.js stops the worker it started itself with the task; this one is handed the same end.
  ;(task as unknown as { _worker: unknown })._worker = worker
  const abort = () => void task.destroy()
  context.signal.addEventListener('abort', abort, { once: true })
  try {
    const document = await task.promise
    skipFontFaceRules(document)
    return document
  } catch (error) {
    const name = error instanceof Error ? error.name : ''
    if (name === 'PasswordException') throw new FormatProblem('encrypted', 'the PDF is password-protected')
    if (name === 'InvalidPDFException')
      throw new FormatProblem('damaged', 'the PDF structure is invalid or truncated')
    throw error
  } finally {
    context.signal.removeEventListener('abort', abort)
  }
}

/**
 * pdf.js's worker side in this thread, as its fake worker would set it up, but on a port that copies
 * messages without `structuredClone` and leaves the glyphs out of operator lists (see loopback.ts):
 * nothing here draws a page; text comes from `getTextContent`, rules and images from the other operators.
 */
function inThreadWorker(library: PdfJs): InstanceType<PdfJs['PDFWorker']> {
  if (!workerSide) throw new Error('pdf.js worker module is not loaded')
  const port = new FastLoopbackPort({ withoutGlyphs: true })
  workerSide.WorkerMessageHandler.initializeFromPort(port)
  return new library.PDFWorker({ port: port as never, verbosity: 0 })
}

/** The largest image of each page without text, from a second pass that decodes images. */
async function scansOf(context: ConvertContext, numbers: number[]): Promise<Map<number, DecodedImage>> {
  const scans = new Map<number, DecodedImage>()
  if (numbers.length === 0) return scans
  const document = await openDocument(context, true)
  try {
    for (const number of numbers) {
      await checkpoint(context.signal)
      let page: PDFPageProxy | undefined
      try {
        page = await document.getPage(number)
        const scan = await scanImage(page)
        if (scan) scans.set(number, scan)
      } catch (error) {
        if (context.signal.aborted) throw error
        context.warn(`the image of page ${number} could not be read`)
      } finally {
        page?.cleanup()
      }
    }
  } finally {
    await document.destroy()
  }
  return scans
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

/**
 * PDF via pdf.js (legacy build, no worker thread): text in reading order, headings from the type
 * scale, lists, tables rebuilt from aligned text, page markers; pages without text go to OCR.
 */
export async function convertPdf(context: ConvertContext): Promise<FormatOutput> {
  const document = await openDocument(context, false)
  try {
    const truncated = isTruncated(context.bytes)
    const pages: (PageText | undefined)[] = []
    for (let number = 1; number <= document.numPages; number++) {
      await checkpoint(context.signal)
      let page: PDFPageProxy | undefined
      try {
        page = await document.getPage(number)
        pages.push(await readPage(page))
      } catch (error) {
        if (context.signal.aborted) throw error
        context.warn(`page ${number} could not be read`)
        pages.push(undefined)
      } finally {
        page?.cleanup()
      }
    }
    if (pages.every((page) => page === undefined)) {
      throw new FormatProblem('damaged', 'no page of the PDF could be read; it is damaged or truncated')
    }
    if (truncated)
      context.warn('the PDF looks truncated (no end-of-file marker); some content may be missing')
    const textless = pages.flatMap((page, index) => (page?.lines.length === 0 ? [index + 1] : []))
    const scans = await scansOf(context, textless)
    const scale = typeScale(pages.flatMap((page) => page?.lines ?? []))
    const parts: string[] = []
    for (const [index, page] of pages.entries()) {
      const number = index + 1
      if (document.numPages > 1) parts.push(`<!-- Page ${number} -->`)
      if (!page) {
        parts.push(`(page ${number} could not be read)`)
        continue
      }
      if (page.lines.length > 0) parts.push(pageMarkdown(page.lines, scale))
      else {
        const scan = scans.get(number)
        if (scan) parts.push(await ocrPage(scan, number, context))
      }
    }
    const info = (await document.getMetadata().catch(() => undefined))?.info as
      | { Title?: unknown }
      | undefined
    const title = usefulTitle(info?.Title, context.name)
    const markdown = parts.filter(Boolean).join('\n\n')
    return title ? { markdown, title } : { markdown }
  } finally {
    await document.destroy()
  }
}
