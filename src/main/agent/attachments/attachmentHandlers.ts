import { checkAttachment } from './checkAttachment'
import type { AttachmentConverter } from './converterPort'

export interface AttachmentHandlerOptions {
  /** The converter Send uses too (shareConversions over the app's converter). */
  converter: AttachmentConverter
  /** The setting `attachments.budgetChars`, read per check. */
  budgetChars: () => number
}

/** `attachments.check`: the composer's chips convert each chosen file before Send. */
export function attachmentHandlers(options: AttachmentHandlerOptions) {
  return {
    'attachments.check': (input: { name: string; bytes: Uint8Array; count: number }) =>
      checkAttachment(options.converter, input, options.budgetChars()),
  }
}
