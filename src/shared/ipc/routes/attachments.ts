import { z } from 'zod'
import { route } from '../defineContract'
import { AttachmentInput } from './chat'

/** What the pre-send check found: the file converts (with what the model will get) or why it does not. */
export const AttachmentCheckResult = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('converted'),
    format: z.string(),
    /** Characters of Markdown the model will get, and whether the budget cut them. */
    chars: z.number().int().nonnegative(),
    truncated: z.boolean(),
    warnings: z.array(z.string()),
  }),
  z.object({
    status: z.literal('failed'),
    /** The converter's message, naming the file. */
    error: z.string(),
  }),
])
export type AttachmentCheckResult = z.infer<typeof AttachmentCheckResult>

export const attachmentRoutes = {
  'attachments.check': route({
    summary:
      'Converts a chosen file before Send (the chip shows Reading…, then Ready or the error); Send reuses the result.',
    input: AttachmentInput.extend({
      /** How many files the message carries now: each gets an equal share of the budget. */
      count: z.number().int().min(1).max(20).default(1),
    }),
    output: AttachmentCheckResult,
  }),
}
