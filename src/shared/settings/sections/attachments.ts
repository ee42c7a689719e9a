import { z } from 'zod'

export const DEFAULT_ATTACHMENT_BUDGET_CHARS = 30_000

/** `off`: images and scanned pages are read by offline OCR only; `when-supported`: by the active provider's vision model when it accepts images. */
export const AttachmentVision = z.enum(['off', 'when-supported'])
export type AttachmentVision = z.infer<typeof AttachmentVision>

export const AttachmentSettings = z.looseObject({
  /** Characters of converted attachments injected per request, split equally per file. */
  budgetChars: z.number().int().min(1_000).max(2_000_000).default(DEFAULT_ATTACHMENT_BUDGET_CHARS),
  /** Whether pictures may be sent to the provider to be read; off keeps them on this computer. */
  vision: AttachmentVision.default('off'),
})
