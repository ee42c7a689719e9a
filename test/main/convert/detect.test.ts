import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { detectFormat } from '../../../src/main/convert/detect'
import { FormatProblem } from '../../../src/main/convert/errors'
import { decodeText } from '../../../src/main/convert/text/decodeText'
import { corpusFile } from './corpus'

const text = (value: string) => new TextEncoder().encode(value)

describe('detectFormat', () => {
  it('trusts content over the extension and says so', () => {
    const detection = detectFormat('notes.docx', corpusFile('test.pdf'))
    expect(detection.format).toBe('pdf')
    expect(detection.note).toContain('not what the .docx extension suggests')
  })

  it('tells OOXML packages apart by their members, whatever the name', () => {
    expect(detectFormat('a.zip', corpusFile('test.docx')).format).toBe('docx')
    expect(detectFormat('a.bin', corpusFile('test.pptx')).format).toBe('pptx')
    expect(detectFormat('noext', corpusFile('test.xlsx')).format).toBe('xlsx')
    expect(detectFormat('book', corpusFile('test.epub')).format).toBe('epub')
    expect(detectFormat('files.zip', corpusFile('test_files.zip')).format).toBe('zip')
    const plain = zipSync({ 'readme.txt': strToU8('hello') })
    expect(detectFormat('x.docx', plain).format).toBe('zip')
  })

  it('recognises legacy Excel, images, feeds, notebooks and HTML by content', () => {
    expect(detectFormat('sheet', corpusFile('test.xls')).format).toBe('xls')
    expect(detectFormat('picture.dat', corpusFile('test.jpg')).format).toBe('image')
    expect(detectFormat('feed.txt', corpusFile('test_rss.xml')).format).toBe('feed')
    expect(detectFormat('nb.json', corpusFile('test_notebook.ipynb')).format).toBe('ipynb')
    expect(detectFormat('page', corpusFile('test_blog.html')).format).toBe('html')
    expect(detectFormat('data', text('{"a": 1}')).format).toBe('json')
  })

  it('uses the extension for text that has no signature', () => {
    expect(detectFormat('t.csv', text('a,b\n1,2\n')).format).toBe('csv')
    expect(detectFormat('t.tsv', text('a\tb\n1\t2\n')).format).toBe('tsv')
    expect(detectFormat('t.md', text('# Title\n')).format).toBe('markdown')
    expect(detectFormat('t', text('just words')).format).toBe('text')
  })

  it('refuses binary noise, empty files and legacy Word with a reason', () => {
    expect(() => detectFormat('random.bin', corpusFile('random.bin'))).toThrow(FormatProblem)
    expect(() => detectFormat('x.txt', new Uint8Array())).toThrow('the file is empty')
    const legacyWord = new Uint8Array(2048)
    legacyWord.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
    legacyWord.set(Buffer.from('WordDocument', 'utf16le'), 1024)
    expect(() => detectFormat('old.doc', legacyWord)).toThrow('save it as .docx')
  })
})

describe('decodeText', () => {
  it('detects the cp932 (Shift_JIS) CSV of the corpus', () => {
    const decoded = decodeText(corpusFile('test_mskanji.csv'))
    expect(decoded.encoding).toBe('shift_jis')
    expect(decoded.text).toContain('佐藤太郎,30,東京')
  })

  it('reads UTF-8 (with or without BOM), UTF-16 and Latin-1', () => {
    expect(decodeText(text('naïve café')).text).toBe('naïve café')
    expect(decodeText(Uint8Array.from([0xef, 0xbb, 0xbf, ...text('x')])).text).toBe('x')
    expect(decodeText(Uint8Array.from([0xff, 0xfe, ...Buffer.from('hé', 'utf16le')])).text).toBe('hé')
    const latin1 = decodeText(Uint8Array.from(Buffer.from('Déjà vu, señor. Très bien, garçon!', 'latin1')))
    expect(latin1.text).toBe('Déjà vu, señor. Très bien, garçon!')
  })
})
