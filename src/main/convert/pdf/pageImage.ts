import type { Pdfium } from './pdfium'
import { BitmapFormat, type Ptr } from './pdfiumExports'

/** A decoded image: 8-bit grey (one channel) or RGB (three), rows packed without padding. */
export interface DecodedImage {
  width: number
  height: number
  channels: 1 | 3
  data: Uint8Array
}

const BYTES_PER_PIXEL: Record<number, number> = {
  [BitmapFormat.gray]: 1,
  [BitmapFormat.bgr]: 3,
  [BitmapFormat.bgrx]: 4,
  [BitmapFormat.bgra]: 4,
}

/**
 * Copies a PDFium bitmap out of the engine: grey stays grey; BGR, BGRx and BGRA become RGB (a scan's
 * alpha says nothing about its text). Undefined for a format PDFium does not name.
 */
export function fromBitmap(engine: Pdfium, bitmap: Ptr): DecodedImage | undefined {
  const { x, heap } = engine
  const width = x.FPDFBitmap_GetWidth(bitmap)
  const height = x.FPDFBitmap_GetHeight(bitmap)
  const stride = x.FPDFBitmap_GetStride(bitmap)
  const bytesPerPixel = BYTES_PER_PIXEL[x.FPDFBitmap_GetFormat(bitmap)]
  const buffer = x.FPDFBitmap_GetBuffer(bitmap)
  if (!bytesPerPixel || !buffer || width <= 0 || height <= 0 || stride < width * bytesPerPixel)
    return undefined
  const source = heap.u8()
  if (bytesPerPixel === 1) {
    const data = new Uint8Array(width * height)
    for (let y = 0; y < height; y++)
      data.set(source.subarray(buffer + y * stride, buffer + y * stride + width), y * width)
    return { width, height, channels: 1, data }
  }
  const data = new Uint8Array(width * height * 3)
  for (let y = 0, target = 0; y < height; y++) {
    for (let at = buffer + y * stride, end = at + width * bytesPerPixel; at < end; at += bytesPerPixel) {
      data[target++] = source[at + 2] as number
      data[target++] = source[at + 1] as number
      data[target++] = source[at] as number
    }
  }
  return { width, height, channels: 3, data }
}

/** Binary PNM (P5 grey or P6 colour), a format tesseract reads directly. */
export function toPnm(image: DecodedImage): Uint8Array {
  const head = new TextEncoder().encode(
    `${image.channels === 1 ? 'P5' : 'P6'}\n${image.width} ${image.height}\n255\n`,
  )
  const out = new Uint8Array(head.length + image.data.length)
  out.set(head)
  out.set(image.data, head.length)
  return out
}

/** node:zlib, loaded when a scan is met: most PDF batches never need it, and a worker loads it for ~1 ms. */
const zlib = () => process.getBuiltinModule('node:zlib')

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  out.set(new TextEncoder().encode(type), 4)
  out.set(data, 8)
  view.setUint32(8 + data.length, zlib().crc32(out.subarray(4, 8 + data.length)))
  return out
}

/** PNG (grey or RGB, 8 bits), the format image-capable models accept; node:zlib does the deflate. */
export function toPng(image: DecodedImage): Uint8Array {
  const { width, height, channels, data } = image
  const row = width * channels
  const raw = new Uint8Array((row + 1) * height)
  for (let y = 0; y < height; y++) raw.set(data.subarray(y * row, (y + 1) * row), y * (row + 1) + 1)
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  header.set([8, channels === 1 ? 0 : 2, 0, 0, 0], 8)
  const parts = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib().deflateSync(raw)),
    chunk('IEND', new Uint8Array()),
  ]
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}
