import { z } from 'zod'

export const AnonymizationSettings = z.looseObject({
  enabled: z.boolean().default(false),
  /** Names and keys replaced by placeholders before anything reaches the model. */
  terms: z.array(z.string().trim().min(1).max(200)).max(1000).default([]),
})
