import { encode as encodePng } from 'fast-png'
import { encode as encodeJpeg } from 'jpeg-js'
import { PDFDocument } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { checkFileSignature, detectFileKind, isImageKind, kindOfName } from '../../../src/shared/files'

const png = encodePng({ width: 2, height: 2, data: new Uint8Array(12), channels: 3, depth: 8 })
const jpeg = new Uint8Array(encodeJpeg({ width: 2, height: 2, data: new Uint8Array(16) }, 80).data)
const text = new TextEncoder().encode('Hello, this is a text file.\n')
const ascii = (value: string) => new TextEncoder().encode(value)

describe('file signatures', () => {
  it('names real PNG, JPEG and PDF bytes by what they are', async () => {
    expect(detectFileKind(png)).toBe('png')
    expect(detectFileKind(jpeg)).toBe('jpeg')
    expect(detectFileKind(await (await PDFDocument.create()).save())).toBe('pdf')
    expect(detectFileKind(ascii('GIF89a\x01\x00'))).toBe('gif')
    expect(detectFileKind(ascii('RIFF\x00\x00\x00\x00WEBPVP8 '))).toBe('webp')
    expect(detectFileKind(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14]))).toBe('zip')
  })

  it('finds a PDF header after leading junk within the first kilobyte, not beyond', () => {
    expect(detectFileKind(ascii(`${' '.repeat(500)}%PDF-1.7`))).toBe('pdf')
    expect(detectFileKind(ascii(`${' '.repeat(2000)}%PDF-1.7`))).toBeUndefined()
  })

  it('a text file named .jpg is not an image; a JPEG named .png does not match its name', () => {
    expect(checkFileSignature('/data/photo.jpg', text)).toEqual({
      expected: 'jpeg',
      actual: undefined,
      matches: false,
    })
    expect(checkFileSignature('poster.PNG', jpeg)).toEqual({
      expected: 'png',
      actual: 'jpeg',
      matches: false,
    })
    expect(checkFileSignature('poster.jpeg', jpeg).matches).toBe(true)
    expect(checkFileSignature('report.docx', Uint8Array.from([0x50, 0x4b, 0x03, 0x04])).matches).toBe(true)
    expect(checkFileSignature('notes.txt', text)).toEqual({
      expected: undefined,
      actual: undefined,
      matches: false,
    })
  })

  it('reads the promised kind from the extension only', () => {
    expect(kindOfName('/a.b/scan.TIFF')).toBe('tiff')
    expect(kindOfName('/a.png/readme')).toBeUndefined()
    expect(kindOfName('.png')).toBeUndefined()
    expect(isImageKind('webp')).toBe(true)
    expect(isImageKind('pdf')).toBe(false)
    expect(isImageKind(undefined)).toBe(false)
  })

  it('needs the whole signature: a truncated PNG header or an empty file is nothing', () => {
    expect(detectFileKind(png.subarray(0, 7))).toBeUndefined()
    expect(detectFileKind(new Uint8Array())).toBeUndefined()
  })
})
