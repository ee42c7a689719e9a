import { posix } from 'node:path'
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'
import { AppError } from '../../../shared/errors'
import { childrenOf, damaged } from './xmlScan'

/** The parts of a .docx, in their original order; parts nobody changes are written back as they were read. */
export interface DocxPackage {
  files: Map<string, Uint8Array>
  /** The main document part, e.g. `word/document.xml`. */
  main: string
}

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]
export const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b)

/** Office's encrypted files are OLE containers holding an `EncryptedPackage` stream (name in UTF-16LE). */
function isEncrypted(bytes: Uint8Array): boolean {
  return Buffer.from(bytes).includes(Buffer.from('EncryptedPackage', 'utf16le'))
}

/** A Word 97-2003 .doc or a password-protected file (both OLE containers) is refused with advice. */
export function refuseOleContainer(bytes: Uint8Array, path: string): void {
  if (!startsWith(bytes, CFB_MAGIC)) return
  if (isEncrypted(bytes))
    throw new AppError(
      'VALIDATION_FAILED',
      `${path} is password-protected; remove the password in Word (File > Info > Protect Document) and try again.`,
    )
  throw new AppError(
    'VALIDATION_FAILED',
    `${path} is an old Word 97-2003 (.doc) file; save it as .docx in Word or LibreOffice and try again.`,
  )
}

function refuseNonDocx(bytes: Uint8Array, path: string): void {
  refuseOleContainer(bytes, path)
  if (!startsWith(bytes, ZIP_MAGIC)) throw damaged(path, 'not a Word .docx package')
}

export function text(pkg: DocxPackage, name: string): string | undefined {
  const bytes = pkg.files.get(name)
  return bytes ? strFromU8(bytes) : undefined
}

export function setText(pkg: DocxPackage, name: string, value: string): void {
  pkg.files.set(name, strToU8(value))
}

/** `word/document.xml` -> `word/_rels/document.xml.rels`. */
export function relsPathOf(part: string): string {
  return posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`)
}

function mainPart(files: Map<string, Uint8Array>, path: string): string {
  const rels = files.get('_rels/.rels')
  if (!rels) throw damaged(path, 'no _rels/.rels')
  const { children } = childrenOf(strFromU8(rels), ['Relationships'], '_rels/.rels')
  const main = children.find((c) => c.attributes.Type === `${REL}/officeDocument`)?.attributes.Target
  if (!main) throw damaged(path, 'no main document')
  const name = main.replace(/^\//, '')
  if (!files.has(name)) throw damaged(path, `${name} is missing`)
  return name
}

export function openDocx(bytes: Uint8Array, path: string): DocxPackage {
  refuseNonDocx(bytes, path)
  let entries: Record<string, Uint8Array>
  try {
    entries = unzipSync(bytes)
  } catch (error) {
    throw damaged(path, error instanceof Error ? error.message : String(error))
  }
  const files = new Map(Object.entries(entries))
  return { files, main: mainPart(files, path) }
}

export function packDocx(pkg: DocxPackage): Uint8Array {
  const entries: Record<string, Uint8Array> = {}
  for (const [name, bytes] of pkg.files) entries[name] = bytes
  return zipSync(entries, { level: 6 })
}
