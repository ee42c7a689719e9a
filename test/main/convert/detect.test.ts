import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { detectFormat } from '../../../src/main/convert/detect'
import { FormatProblem } from '../../../src/main/convert/errors'
import { decodeText } from '../../../src/main/convert/text/decodeText'
import { readCentralDirectory } from '../../../src/main/convert/zip/centralDirectory'
import { core } from './corpus'

const corpusFile = (name: string) => core.file(name)

const text = (value: string) => new TextEncoder().encode(value)

describe('detectFormat', () => {
  it('trusts content over the extension and says so', async () => {
    const detection = await detectFormat('notes.docx', corpusFile('report.pdf'))
    expect(detection.format).toBe('pdf')
    expect(detection.note).toContain('not what the .docx extension suggests')
  })

  it('tells OOXML packages apart by their members, whatever the name', async () => {
    expect((await detectFormat('a.zip', corpusFile('report.docx'))).format).toBe('docx')
    expect((await detectFormat('a.bin', corpusFile('deck.pptx'))).format).toBe('pptx')
    expect((await detectFormat('noext', corpusFile('sheet.xlsx'))).format).toBe('xlsx')
    expect((await detectFormat('book', corpusFile('book.epub'))).format).toBe('epub')
    expect((await detectFormat('files.zip', corpusFile('bundle.zip'))).format).toBe('zip')
    const plain = zipSync({ 'readme.txt': strToU8('hello') })
    expect((await detectFormat('x.docx', plain)).format).toBe('zip')
  })

  it('reads an archive its directory reader leaves to fflate (a Zip64 locator) through fflate', async () => {
    // The last entry's comment ends where a Zip64 locator would sit, before the end record.
    const zip = zipSync({
      'word/document.xml': strToU8('<w:document/>'),
      'b.txt': [strToU8('b'), { comment: `PK\u0006\u0007${'\u0000'.repeat(16)}` }],
    })
    expect(readCentralDirectory(zip)).toBeUndefined()
    expect((await detectFormat('a.zip', zip)).format).toBe('docx')
  })

  it('recognises legacy Excel, images, feeds, notebooks and HTML by content', async () => {
    expect((await detectFormat('sheet', corpusFile('sheet.xls'))).format).toBe('xls')
    expect((await detectFormat('picture.dat', corpusFile('photo.jpg'))).format).toBe('image')
    expect((await detectFormat('feed.txt', corpusFile('feed.xml'))).format).toBe('feed')
    expect((await detectFormat('nb.json', corpusFile('notebook.ipynb'))).format).toBe('ipynb')
    expect((await detectFormat('page', corpusFile('blog.html'))).format).toBe('html')
    expect((await detectFormat('data', text('{"a": 1}'))).format).toBe('json')
  })

  it('uses the extension for text that has no signature', async () => {
    expect((await detectFormat('t.csv', text('a,b\n1,2\n'))).format).toBe('csv')
    expect((await detectFormat('t.tsv', text('a\tb\n1\t2\n'))).format).toBe('tsv')
    expect((await detectFormat('t.md', text('# Title\n'))).format).toBe('markdown')
    expect((await detectFormat('t', text('just words'))).format).toBe('text')
  })

  it('refuses binary noise, empty files and legacy Word with a reason', async () => {
    await expect(detectFormat('random.bin', corpusFile('random.bin'))).rejects.toThrow(FormatProblem)
    await expect(detectFormat('x.txt', new Uint8Array())).rejects.toThrow('the file is empty')
    const legacyWord = new Uint8Array(2048)
    legacyWord.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
    legacyWord.set(Buffer.from('WordDocument', 'utf16le'), 1024)
    await expect(detectFormat('old.doc', legacyWord)).rejects.toThrow('save it as .docx')
  })
})

describe('decodeText', () => {
  it('detects the cp932 (Shift_JIS) CSV of the corpus', () => {
    const decoded = decodeText(corpusFile('kanji.csv'))
    expect(decoded.encoding).toBe('shift_jis')
    expect(decoded.text).toContain('佐藤花子,41,札幌')
  })

  it('reads UTF-8 (with or without BOM), UTF-16 and Latin-1', () => {
    expect(decodeText(text('naïve café')).text).toBe('naïve café')
    expect(decodeText(Uint8Array.from([0xef, 0xbb, 0xbf, ...text('x')])).text).toBe('x')
    expect(decodeText(Uint8Array.from([0xff, 0xfe, ...Buffer.from('hé', 'utf16le')])).text).toBe('hé')
    const latin1 = decodeText(Uint8Array.from(Buffer.from('Déjà vu, señor. Très bien, garçon!', 'latin1')))
    expect(latin1.text).toBe('Déjà vu, señor. Très bien, garçon!')
  })
})
