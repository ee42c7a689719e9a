import { FormatProblem } from './errors'
import { byExtension, extensionOf } from './extensions'
import type { ConvertFormat } from './types'
import { readCentralDirectory } from './zip/centralDirectory'

export interface Detection {
  format: ConvertFormat
  /** Set when the content contradicts the file extension. */
  note?: string
}

const zipFamily = new Set<ConvertFormat>(['docx', 'xlsx', 'pptx', 'epub', 'zip'])

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false
  return signature.every((value, index) => bytes[offset + index] === value)
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, Math.min(end, bytes.length)))
}

/** Image signatures tesseract can read. */
export function imageMimeType(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (ascii(bytes, 0, 4) === 'GIF8') return 'image/gif'
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp'
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'image/tiff'
  if (ascii(bytes, 0, 2) === 'BM' && bytes.length > 26) return 'image/bmp'
  return undefined
}

function containsUtf16(bytes: Uint8Array, word: string): boolean {
  const needle = Buffer.from(word, 'utf16le')
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(needle)
}

/** Office writes a password-protected .docx/.xlsx/.pptx as an OLE container with an `EncryptedPackage`. */
function passwordAdvice(hinted: ConvertFormat | undefined): string {
  const app = hinted === 'xlsx' || hinted === 'xls' ? 'Excel' : hinted === 'pptx' ? 'PowerPoint' : 'Word'
  return `the document is password-protected; remove the password in ${app} (File > Info > Protect) and try again`
}

function detectCompoundFile(bytes: Uint8Array, hinted: ConvertFormat | undefined): ConvertFormat {
  if (containsUtf16(bytes, 'EncryptedPackage')) throw new FormatProblem('encrypted', passwordAdvice(hinted))
  if (containsUtf16(bytes, 'Workbook') || containsUtf16(bytes, 'Book')) return 'xls'
  if (containsUtf16(bytes, 'WordDocument')) {
    throw new FormatProblem(
      'unsupported',
      'legacy Word .doc files are not supported; save it as .docx and try again',
    )
  }
  if (containsUtf16(bytes, 'PowerPoint Document')) {
    throw new FormatProblem(
      'unsupported',
      'legacy PowerPoint .ppt files are not supported; save it as .pptx and try again',
    )
  }
  // No stream names at all: the directory (usually at the end) is missing, so the file is cut short.
  if (hinted === 'xls') return 'xls'
  throw new FormatProblem(
    'damaged',
    'the legacy Office file is damaged or truncated (its directory cannot be read)',
  )
}

/**
 * The member names, from the central directory as the Word reader reads it (names as fflate reads
 * them); fflate, whose module costs ~10 ms to load, only for the archives that reader leaves to it.
 */
async function zipNames(bytes: Uint8Array): Promise<Set<string>> {
  const directory = readCentralDirectory(bytes)
  const entries = directory ?? (await import('./zip/readZip')).listZip(bytes)
  return new Set(entries.map((entry) => entry.name))
}

async function detectZipFamily(bytes: Uint8Array, hinted: ConvertFormat | undefined): Promise<ConvertFormat> {
  let names: Set<string>
  try {
    names = await zipNames(bytes)
  } catch (error) {
    // A truncated archive has no directory to look at: trust the extension so the error names the format.
    if (hinted && zipFamily.has(hinted)) return hinted
    throw error
  }
  if (names.has('word/document.xml')) return 'docx'
  if (names.has('xl/workbook.xml') || names.has('xl/workbook.bin')) return 'xlsx'
  if (names.has('ppt/presentation.xml')) return 'pptx'
  if (names.has('META-INF/container.xml') && (names.has('mimetype') || hinted === 'epub')) return 'epub'
  return 'zip'
}

/** True when the bytes look like text in some encoding (no NULs, few control characters). */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (
    startsWith(bytes, [0xef, 0xbb, 0xbf]) ||
    startsWith(bytes, [0xff, 0xfe]) ||
    startsWith(bytes, [0xfe, 0xff])
  ) {
    return true
  }
  const sample = bytes.subarray(0, 8192)
  let control = 0
  for (const byte of sample) {
    if (byte === 0) return false
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b)
      control++
  }
  return control <= sample.length * 0.01
}

function detectText(head: string, hinted: ConvertFormat | undefined): ConvertFormat {
  const start = head.replace(/^\uFEFF/, '').trimStart()
  const lower = start.slice(0, 4096).toLowerCase()
  if (start.startsWith('{') || start.startsWith('[')) {
    if (hinted === 'ipynb' || (/"cells"\s*:/.test(start) && /"nbformat"/.test(start))) return 'ipynb'
    if (hinted === 'csv' || hinted === 'tsv' || hinted === 'markdown' || hinted === 'text') return hinted
    return 'json'
  }
  if (start.startsWith('<')) {
    if (/<(rss|feed|rdf:rdf)[\s>]/.test(lower)) return 'feed'
    if (/<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]/.test(lower)) return 'html'
  }
  if (
    hinted === 'html' ||
    hinted === 'csv' ||
    hinted === 'tsv' ||
    hinted === 'markdown' ||
    hinted === 'feed'
  ) {
    return hinted
  }
  return hinted === 'json' || hinted === 'ipynb' ? hinted : 'text'
}

/**
 * Decides the format from the content first (magic bytes, zip members, text sniffing) and uses the
 * extension only to break ties. Throws a FormatProblem for content that is not a document.
 */
export async function detectFormat(name: string, bytes: Uint8Array): Promise<Detection> {
  const extension = extensionOf(name)
  const hinted = byExtension[extension]
  const format = await detectFromContent(bytes, hinted)
  const note =
    hinted && hinted !== format && !(hinted === 'text' && format !== 'image')
      ? `the content is ${format}, not what the .${extension} extension suggests`
      : undefined
  return note ? { format, note } : { format }
}

async function detectFromContent(
  bytes: Uint8Array,
  hinted: ConvertFormat | undefined,
): Promise<ConvertFormat> {
  if (bytes.length === 0) throw new FormatProblem('not_a_document', 'the file is empty')
  if (ascii(bytes, 0, 1024).includes('%PDF-')) return 'pdf'
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return detectZipFamily(bytes, hinted)
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))
    return detectCompoundFile(bytes, hinted)
  if (imageMimeType(bytes)) return 'image'
  if (looksLikeText(bytes))
    return detectText(new TextDecoder('latin1').decode(bytes.subarray(0, 8192)), hinted)
  if (hinted === 'pdf') throw new FormatProblem('damaged', 'the file is not a valid PDF (no PDF header)')
  if (hinted && zipFamily.has(hinted)) {
    throw new FormatProblem('damaged', `the file is not a valid ${hinted} (no zip header)`)
  }
  throw new FormatProblem('not_a_document', 'the content is not a document format Bureau can read')
}
