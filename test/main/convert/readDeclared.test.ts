import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { unzipSync, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { readCentralDirectory } from '../../../src/main/convert/zip/centralDirectory'
import { readZipDeclared } from '../../../src/main/convert/zip/readDeclared'
import { withLyingSizes } from '../../support/damagedZip'
import { fixturePath } from '../../support/fixtures'
import { skipReason, thirdPartyDir } from '../../support/requirements'

// The package reader of Word parts inflates with zlib from the central directory; fflate's
// unzip is the reference it must agree with, member for member and byte for byte.

const LOCAL = 0x04034b50
const CENTRAL = 0x02014b50

/** The project's zip-based documents, and the corpus's (converter and spreadsheet) where it is there. */
const corpusFolders = ['corpus/convert', 'corpus/xlsx/exceljs', 'corpus/xlsx/xlsxwriter']
const withCorpus = !skipReason(
  "readZipDeclared on the corpus's packages",
  corpusFolders.map((thirdParty) => ({ thirdParty })),
)
const folders = [
  fixturePath('core'),
  ...(withCorpus ? corpusFolders.map((f) => join(thirdPartyDir(), f)) : []),
]
const packages = folders.flatMap((folder) =>
  readdirSync(folder)
    .filter((name) => /\.(docx|xlsx|xlsm|pptx|epub|zip)$/.test(name))
    .map((name) => [`${folder}/${name}`, new Uint8Array(readFileSync(join(folder, name)))] as const),
)

const fflateFiles = (bytes: Uint8Array) =>
  new Map(Object.entries(unzipSync(bytes, { filter: (file) => file.compression !== 14 })))

/** Rewrites a field of every local header and central directory entry. */
function patchHeaders(bytes: Uint8Array, patch: (view: DataView, at: number, central: boolean) => void) {
  const out = bytes.slice()
  const view = new DataView(out.buffer)
  for (let at = 0; at + 4 <= out.length; at++) {
    const signature = view.getUint32(at, true)
    if (signature === LOCAL || signature === CENTRAL) patch(view, at, signature === CENTRAL)
  }
  return out
}

describe('readZipDeclared', () => {
  it('reads every member of every fixture package as fflate does', async () => {
    // The project's six packages (docx, xlsx, pptx, epub, zip); with the corpus's, more than thirty.
    expect(packages.length).toBeGreaterThanOrEqual(withCorpus ? 30 : 6)
    for (const [name, bytes] of packages) {
      expect(readCentralDirectory(bytes), name).toBeDefined()
      const { files, size } = await readZipDeclared(bytes, () => true)
      const expected = fflateFiles(bytes)
      expect([...files.keys()], name).toEqual([...expected.keys()])
      for (const [member, data] of expected) {
        expect(Buffer.compare(files.get(member) as Uint8Array, data), `${name} ${member}`).toBe(0)
        expect(size.get(member), `${name} ${member}`).toBe(data.length)
      }
    }
  })

  it('names without the UTF-8 flag are one character per byte, as fflate reads them', async () => {
    const zip = zipSync({ 'cafX.txt': new TextEncoder().encode('menu') })
    const latin = patchHeaders(zip, (view, at, central) => {
      const name = at + (central ? 46 : 30)
      view.setUint8(name + 3, 0x92)
      view.setUint16(at + (central ? 8 : 6), 0, true)
    })
    expect([...(await readZipDeclared(latin, () => true)).files.keys()]).toEqual(['caf\u0092.txt'])
    expect(Object.keys(unzipSync(latin))).toEqual(['caf\u0092.txt'])
  })

  it('leaves a member that unpacks to more than it declares out, keeping its declared size', async () => {
    const [, docx] = packages.find(([name]) => name.endsWith('/core/memo.docx')) ?? []

    const lying = withLyingSizes(docx as Uint8Array, -1)
    const { files, size } = await readZipDeclared(lying, () => true)
    expect(files.size).toBe(0)
    expect(size.get('word/document.xml')).toBeGreaterThan(0)
  })

  it('an archive the directory reader does not handle (a Zip64 locator) is read by fflate alike', async () => {
    const text = new TextEncoder().encode('hello')
    // The last directory entry's comment ends where a Zip64 locator would sit, before the end record.
    const zip = zipSync({
      'a.txt': text,
      'b.txt': [text, { comment: `PK\u0006\u0007${'\u0000'.repeat(16)}` }],
    })
    expect(readCentralDirectory(zip)).toBeUndefined()
    const { files } = await readZipDeclared(zip, () => true)
    expect([...files.keys()]).toEqual(['a.txt', 'b.txt'])
    expect(new TextDecoder().decode(files.get('b.txt'))).toBe('hello')
  })

  it('an unknown compression method or data past the end of the archive is damaged', async () => {
    const zip = zipSync({ 'a.txt': new TextEncoder().encode('hello hello hello hello') })
    const bzip2 = patchHeaders(zip, (view, at, central) => view.setUint16(at + (central ? 10 : 8), 12, true))
    await expect(readZipDeclared(bzip2, () => true)).rejects.toThrow('a zip member cannot be inflated')
    const past = patchHeaders(zip, (view, at, central) => {
      if (central) view.setUint32(at + 20, 1_000_000, true)
    })
    await expect(readZipDeclared(past, () => true)).rejects.toThrow('a zip member cannot be inflated')
    // Members that are not wanted are never read.
    expect((await readZipDeclared(bzip2, () => false)).files.size).toBe(0)
  })
})
