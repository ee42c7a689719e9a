import { imageMimeType } from '../detect'
import { displayName, FormatProblem } from '../errors'
import type { ConvertContext, FormatOutput } from '../types'
import { visionFallbackWarning } from '../visionFallback'

async function describeWithVision(context: ConvertContext, mimeType: string): Promise<string | undefined> {
  if (!context.vision) return undefined
  try {
    const description = await context.vision(
      { name: displayName(context.name), bytes: context.bytes, mimeType },
      { signal: context.signal },
    )
    return description.trim() || undefined
  } catch (error) {
    if (context.signal.aborted) throw error
    context.warn(visionFallbackWarning(error, 'could not describe the image'))
    return undefined
  }
}

/** OCR text (offline tesseract.js), or a vision model's description when the caller provides one. */
export async function convertImage(context: ConvertContext): Promise<FormatOutput> {
  const mimeType = imageMimeType(context.bytes) ?? 'application/octet-stream'
  const name = displayName(context.name)
  const header = context.keepDataUris
    ? `![${name}](data:${mimeType};base64,${Buffer.from(context.bytes).toString('base64')})`
    : `![${name}](${name.replace(/[()\s]/g, encodeURIComponent)})`
  const description = await describeWithVision(context, mimeType)
  if (description) return { markdown: `${header}\n\n${description}` }
  if (mimeType === 'image/gif')
    throw new FormatProblem('unsupported', 'text recognition does not read GIF images')
  const ocr = context.ocr()
  if (!ocr)
    throw new FormatProblem('unsupported', 'text recognition is turned off and no vision model is available')
  const text = (await ocr.recognize(context.bytes, { signal: context.signal })).trim()
  return {
    markdown: `${header}\n\n${text ? `Text recognised in the image (OCR):\n\n${text}` : '(no text recognised in the image)'}`,
  }
}
