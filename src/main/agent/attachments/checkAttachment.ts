import type { AttachmentCheckResult } from '../../../shared/ipc'
import { cutToShare } from './attachmentContext'
import { type AttachmentConverter, conversionFailure } from './converterPort'
import { attachmentShare } from './prepareAttachments'

export interface AttachmentCheckInput {
  name: string
  bytes: Uint8Array
  /** How many files the message will carry: each gets an equal share of the budget, as on Send. */
  count: number
}

/**
 * Converts a file the user chose but has not sent yet, with the budget share Send will use, so its
 * chip shows the real outcome and Send finds the result cached. Pictures are read locally (OCR):
 * nothing goes to a vision model before the user sends.
 */
export async function checkAttachment(
  converter: AttachmentConverter,
  input: AttachmentCheckInput,
  budgetChars: number,
): Promise<AttachmentCheckResult> {
  const share = attachmentShare(budgetChars, input.count)
  try {
    const result = await converter.convert(
      { name: input.name, bytes: input.bytes },
      { maxChars: share, localOnly: true },
    )
    const fitted = cutToShare(result.markdown, share)
    return {
      status: 'converted',
      format: result.format,
      chars: fitted.markdown.length,
      truncated: result.truncated || fitted.truncated,
      warnings: result.warnings ?? [],
    }
  } catch (error) {
    return { status: 'failed', error: conversionFailure(input.name, error) }
  }
}
