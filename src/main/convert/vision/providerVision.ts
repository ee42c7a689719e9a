import { AppError } from '../../../shared/errors'
import type { LlmClient } from '../../llm'
import type { VisionHook, VisionSource } from '../types'
import { appErrorDetail } from '../visionFallback'

/** The setting `attachments.vision`, or `bureau convert --vision`. */
export type VisionMode = 'off' | 'when-supported'

export interface ProviderVisionOptions {
  /** Read per conversion (the user may change the setting); a CLI may open its settings only when asked. */
  mode: () => VisionMode | Promise<VisionMode>
  /** The active provider's client (read per conversion: the user may switch providers). */
  client: () => Promise<LlmClient>
}

export const TRANSCRIBE_INSTRUCTIONS = [
  'You transcribe one image (a scan, a photo, a screenshot or a page of a document) into Markdown for a reader who cannot see it.',
  '- Write out all of its text exactly as it appears, in reading order and in its own language: do not correct, translate, shorten or summarise it.',
  '- Keep the structure: headings as Markdown headings, lists as lists, tables as Markdown tables with every row and column.',
  '- Describe each figure, chart, photo, diagram, logo, stamp or signature in one short italic line, e.g. *Figure: bar chart of sales per month, highest in June.*, with the values you can read.',
  '- Write [illegible] for words you cannot read.',
  '- Answer with the Markdown only: no introduction, no comments, no code fence around it.',
].join('\n')

/** Some models wrap the whole answer in a ```markdown fence despite being asked not to. */
function unfenced(text: string): string {
  const fenced = /^```(?:markdown|md)?[ \t]*\n([\s\S]*?)\n```$/i.exec(text)
  return fenced?.[1] ?? text
}

/** One image to the model with the transcription instructions; its Markdown back. */
export function transcribeWith(client: LlmClient): VisionHook {
  return async (image, { signal }) => {
    const result = await client.chat({
      messages: [
        { role: 'system', content: TRANSCRIBE_INSTRUCTIONS },
        {
          role: 'user',
          content: `Transcribe "${image.name}".`,
          images: [{ mimeType: image.mimeType, data: image.bytes }],
        },
      ],
      signal,
    })
    if (result.finishReason === 'content_filter')
      throw new AppError('UNSUPPORTED', 'the provider refused to read the image')
    const text = unfenced(result.message.content.trim()).trim()
    if (!text) throw new AppError('HANDLER_FAILED', 'the model answered with no text')
    return text
  }
}

/**
 * The app's choice per conversion: the active provider's vision model when the user allows it and
 * the provider takes images; otherwise OCR, with the reason when a model was wanted but cannot be used.
 */
export function providerVision(options: ProviderVisionOptions): VisionSource {
  return async () => {
    if ((await options.mode()) !== 'when-supported') return { kind: 'off' }
    let client: LlmClient
    try {
      client = await options.client()
    } catch (error) {
      return { kind: 'unavailable', reason: `the active provider cannot be used${appErrorDetail(error)}` }
    }
    const { provider } = client
    if (!provider.supportsVision) {
      return {
        kind: 'unavailable',
        reason: `${provider.name} (${provider.model}) does not read images (its supportsVision is off)`,
      }
    }
    return {
      kind: 'model',
      id: `${provider.id}/${provider.model}@${provider.baseUrl}`,
      hook: transcribeWith(client),
    }
  }
}
