import { z } from 'zod'

export const DEFAULT_ATTACHMENT_BUDGET_CHARS = 30_000

export const AttachmentSettings = z.looseObject({
  /** Characters of converted attachments injected per request, split equally per file. */
  budgetChars: z.number().int().min(1_000).max(2_000_000).default(DEFAULT_ATTACHMENT_BUDGET_CHARS),
})
