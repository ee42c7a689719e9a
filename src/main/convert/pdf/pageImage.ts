import { crc32, deflateSync } from 'node:zlib'

/** A decoded image as pdf.js hands it over in Node (no canvas): raw pixels and their layout. */
export interface DecodedImage {
  width: number
  height: number
  kind: number
  data: Uint8Array | Uint8ClampedArray
}

const GRAYSCALE_1BPP = 1
const RGB_24BPP = 2
const RGBA_32BPP = 3

/**
 * Encodes raw pixels as binary PNM (P5 grey or P6 colour), a format tesseract reads directly,
 * so no canvas or image library is needed for scanned pages.
 */
export function toPnm(image: DecodedImage): Uint8Array | undefined {
  const { width, height, kind, data } = image
  if (kind === RGB_24BPP && data.length >= width * height * 3) {
    return concat(`P6\n${width} ${height}\n255\n`, data.subarray(0, width * height * 3))
  }
  if (kind === RGBA_32BPP && data.length >= width * height * 4) {
    const rgb = new Uint8Array(width * height * 3)
    for (let source = 0, target = 0; target < rgb.length; source += 4, target += 3) {
      rgb[target] = data[source] as number
      rgb[target + 1] = data[source + 1] as number
      rgb[target + 2] = data[source + 2] as number
    }
    return concat(`P6\n${width} ${height}\n255\n`, rgb)
  }
  if (kind === GRAYSCALE_1BPP) {
    const rowBytes = Math.ceil(width / 8)
    if (data.length < rowBytes * height) return undefined
    const grey = new Uint8Array(width * height)
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const bit = ((data[y * rowBytes + (x >> 3)] as number) >> (7 - (x & 7))) & 1
        grey[y * width + x] = bit ? 255 : 0
      }
    }
    return concat(`P5\n${width} ${height}\n255\n`, grey)
  }
  return undefined
}

function concat(header: string, pixels: Uint8Array | Uint8ClampedArray): Uint8Array {
  const head = new TextEncoder().encode(header)
  const out = new Uint8Array(head.length + pixels.length)
  out.set(head)
  out.set(pixels, head.length)
  return out
}

function rgbPixels(image: DecodedImage): Uint8Array | undefined {
  const pnm = toPnm(image)
  if (!pnm) return undefined
  // toPnm's header is three text lines; the pixels follow it.
  let newlines = 0
  let offset = 0
  while (newlines < 3 && offset < pnm.length) if (pnm[offset++] === 0x0a) newlines++
  const pixels = pnm.subarray(offset)
  if (pixels.length === image.width * image.height * 3) return pixels
  const rgb = new Uint8Array(image.width * image.height * 3)
  for (let i = 0; i < pixels.length; i++) rgb.fill(pixels[i] as number, i * 3, i * 3 + 3)
  return rgb
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  out.set(new TextEncoder().encode(type), 4)
  out.set(data, 8)
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)))
  return out
}

/** Encodes raw pixels as PNG, the format image-capable models accept (node:zlib does the deflate). */
export function toPng(image: DecodedImage): Uint8Array | undefined {
  const rgb = rgbPixels(image)
  if (!rgb) return undefined
  const { width, height } = image
  const raw = new Uint8Array((width * 3 + 1) * height)
  for (let y = 0; y < height; y++)
    raw.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1)
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  header.set([8, 2, 0, 0, 0], 8)
  const parts = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
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
