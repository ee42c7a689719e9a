// What a file really is, from its first bytes (and, for Office files, the part its package must hold).

export type SignatureFormat = 'jpeg' | 'png' | 'gif' | 'pdf' | 'docx' | 'xlsx' | 'ics'

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes.subarray(from, to)).toString('latin1')

const zipHolding = (bytes: Uint8Array, part: string) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && Buffer.from(bytes).includes(part)

const TESTS: Record<SignatureFormat, (bytes: Uint8Array) => boolean> = {
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  png: (b) => ascii(b, 0, 8) === '\x89PNG\r\n\x1a\n',
  gif: (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a',
  pdf: (b) => ascii(b, 0, 5) === '%PDF-',
  docx: (b) => zipHolding(b, 'word/document.xml'),
  xlsx: (b) => zipHolding(b, 'xl/workbook.xml'),
  ics: (b) =>
    ascii(b, 0, 64)
      .replace(/^\ufeff|^\xef\xbb\xbf/, '')
      .trimStart()
      .startsWith('BEGIN:VCALENDAR'),
}

export function hasSignature(bytes: Uint8Array, format: SignatureFormat): boolean {
  return TESTS[format](bytes)
}

/** The format a file name's extension claims, when the signature check knows it. */
export function formatOfName(name: string): SignatureFormat | undefined {
  const ext = name.toLowerCase().split('.').pop() ?? ''
  const byExt: Record<string, SignatureFormat> = {
    jpg: 'jpeg',
    jpeg: 'jpeg',
    png: 'png',
    gif: 'gif',
    pdf: 'pdf',
    docx: 'docx',
    xlsx: 'xlsx',
    ics: 'ics',
  }
  return byExt[ext]
}
