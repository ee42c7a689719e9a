/**
 * What a file really is, from its first bytes (its "magic number"), whatever its name says: a text file
 * named `photo.jpg` is no image. Only formats whose signature is unambiguous are named; the Office Open
 * XML and OpenDocument formats are all ZIP containers and share one kind.
 */
export type FileKind = 'png' | 'jpeg' | 'gif' | 'bmp' | 'webp' | 'tiff' | 'pdf' | 'zip' | 'ole'

export const IMAGE_KINDS: readonly FileKind[] = ['png', 'jpeg', 'gif', 'bmp', 'webp', 'tiff']

const EXTENSION_KIND: Record<string, FileKind> = {
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  jpe: 'jpeg',
  jfif: 'jpeg',
  gif: 'gif',
  bmp: 'bmp',
  webp: 'webp',
  tif: 'tiff',
  tiff: 'tiff',
  pdf: 'pdf',
  zip: 'zip',
  docx: 'zip',
  docm: 'zip',
  dotx: 'zip',
  xlsx: 'zip',
  xlsm: 'zip',
  pptx: 'zip',
  odt: 'zip',
  ods: 'zip',
  odp: 'zip',
  epub: 'zip',
  doc: 'ole',
  xls: 'ole',
  ppt: 'ole',
  msg: 'ole',
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false
  return signature.every((byte, i) => bytes[at + i] === byte)
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))
const PDF = ascii('%PDF-')
/** PDF readers accept the header anywhere in the first kilobyte (ISO 32000-1, annex H). */
const PDF_HEADER_WINDOW = 1024

function findPdfHeader(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, PDF_HEADER_WINDOW) - PDF.length
  for (let at = 0; at <= end; at++) if (startsWith(bytes, PDF, at)) return true
  return false
}

/** The kind the bytes are, or undefined when no signature matches (plain text, an unknown format). */
export function detectFileKind(bytes: Uint8Array): FileKind | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png'
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg'
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif'
  if (startsWith(bytes, ascii('BM')) && bytes.length >= 26) return 'bmp'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp'
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'tiff'
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return 'zip'
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole'
  if (findPdfHeader(bytes)) return 'pdf'
  return undefined
}

/** The kind a file name promises by its extension, or undefined for names that promise no signature. */
export function kindOfName(name: string): FileKind | undefined {
  const base = name.slice(name.lastIndexOf('/') + 1)
  const dot = base.lastIndexOf('.')
  if (dot <= 0) return undefined
  return EXTENSION_KIND[base.slice(dot + 1).toLowerCase()]
}

export function isImageKind(kind: FileKind | undefined): boolean {
  return kind !== undefined && IMAGE_KINDS.includes(kind)
}

export interface SignatureCheck {
  /** What the name promises (undefined: its extension promises nothing checkable). */
  expected: FileKind | undefined
  /** What the bytes are. */
  actual: FileKind | undefined
  /** The bytes are what the name says (false when the name promises nothing). */
  matches: boolean
}

/** Whether a file's bytes are what its name says: `report.pdf` starting with `%PDF-`, `photo.jpg` a JPEG. */
export function checkFileSignature(name: string, bytes: Uint8Array): SignatureCheck {
  const expected = kindOfName(name)
  const actual = detectFileKind(bytes)
  return { expected, actual, matches: expected !== undefined && expected === actual }
}
