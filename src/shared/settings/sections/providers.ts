import { z } from 'zod'

/** A provider id as used in providers.json and in secret names (`providers.<id>.apiKey`). */
export const ProviderId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'Use lowercase letters, digits, "-" and "_" (e.g. "deepseek").')

/** How a model calls tools: `api` = one function per method, `cli` = the single terminal tool. */
export const InteractionMode = z.enum(['api', 'cli'])
export type InteractionMode = z.infer<typeof InteractionMode>

/** The provider in use; `model: null` means the preset's model. */
export const ActiveProviderSettings = z.looseObject({
  active: ProviderId.default('ollama'),
  model: z.string().trim().min(1).nullable().default(null),
})

/**
 * The user's changes to one preset. Every field is optional: what is missing comes from the preset.
 * The API key is never here: it is the secret `providers.<id>.apiKey`.
 */
export const ProviderOverride = z.looseObject({
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  model: z.string().trim().min(1).optional(),
  contextWindow: z.number().int().min(512).optional(),
  interactionMode: InteractionMode.optional(),
})

export const ProviderOverrides = z.record(ProviderId, ProviderOverride).default({})
