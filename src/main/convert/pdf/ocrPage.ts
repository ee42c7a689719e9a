import type { ConvertContext } from '../types'
import { type DecodedImage, toPnm } from './pageImage'

/** OCR of a page without a text layer; a page that cannot be read this way is reported, not fatal. */
export async function ocrPage(scan: DecodedImage, number: number, context: ConvertContext): Promise<string> {
  const ocr = context.ocr()
  if (!ocr) {
    context.warn(`page ${number} has no text layer and text recognition is turned off`)
    return `(page ${number} is a scanned image; text recognition is off)`
  }
  const image = toPnm(scan)
  if (!image) {
    context.warn(`page ${number} has no text layer and its image format cannot be read`)
    return `(page ${number} is an image that could not be read)`
  }
  const text = (await ocr.recognize(image, { signal: context.signal })).trim()
  if (!text) return `(no text recognised on page ${number})`
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .join('\n'),
    )
    .filter(Boolean)
  return [`*Text recognised by OCR (page ${number}):*`, ...paragraphs].join('\n\n')
}
