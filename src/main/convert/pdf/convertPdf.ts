import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { FormatProblem } from '../errors'
import { checkpoint } from '../limits'
import type { ConvertContext, FormatOutput } from '../types'
import { pageMarkdown, typeScale } from './blocks'
import { ocrPage } from './ocrPage'
import { type PageText, readPage } from './readPage'

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs')

let pdfjs: Promise<PdfJs> | undefined

function assetsFolder(name: string): string {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))
  return `${pathToFileURL(join(root, name)).pathname}/`
}

async function openDocument(context: ConvertContext): Promise<PDFDocumentProxy> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs')
  const library = await pdfjs
  const task = library.getDocument({
    // pdf.js takes ownership of the buffer it is given, so it gets a copy; and it refuses a Node Buffer,
    // whose slice() would still be a Buffer, so the copy is a plain Uint8Array.
    data: new Uint8Array(context.bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    standardFontDataUrl: assetsFolder('standard_fonts'),
    cMapUrl: assetsFolder('cmaps'),
    cMapPacked: true,
  })
  const abort = () => void task.destroy()
  context.signal.addEventListener('abort', abort, { once: true })
  try {
    return await task.promise
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
  const document = await openDocument(context)
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
      else if (page.scan) parts.push(await ocrPage(page.scan, number, context))
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
