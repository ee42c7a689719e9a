import { displayName } from '../errors'
import type { ConvertContext } from '../types'
import { visionFallbackWarning } from '../visionFallback'
import { type DecodedImage, toPng, toPnm } from './pageImage'

/** OCR of a page without a text layer; a page that cannot be read this way is reported, not fatal. */
async function describePage(
  scan: DecodedImage,
  number: number,
  context: ConvertContext,
): Promise<string | undefined> {
  if (!context.vision) return undefined
  const png = toPng(scan)
  try {
    const name = `${displayName(context.name)} page ${number}.png`
    const text = (
      await context.vision({ name, bytes: png, mimeType: 'image/png' }, { signal: context.signal })
    ).trim()
    return text ? `*Page ${number} read by the vision model:*\n\n${text}` : undefined
  } catch (error) {
    if (context.signal.aborted) throw error
    context.warn(visionFallbackWarning(error, `could not read page ${number}`))
    return undefined
  }
}

/** A page without a text layer: the vision model when the caller gave one, else offline OCR. */
export async function ocrPage(scan: DecodedImage, number: number, context: ConvertContext): Promise<string> {
  const described = await describePage(scan, number, context)
  if (described) return described
  const ocr = context.ocr()
  if (!ocr) {
    context.warn(`page ${number} has no text layer and text recognition is turned off`)
    return `(page ${number} is a scanned image; text recognition is off)`
  }
  const text = (await ocr.recognize(toPnm(scan), { signal: context.signal })).trim()
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
