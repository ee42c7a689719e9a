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
