import { z } from 'zod'

const ProviderId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lowercase letters, digits, "_" or "-" (at most 64), e.g. "deepseek"')

const HttpUrl = z.url({ protocol: /^https?$/, error: 'an http:// or https:// URL' })

const PositiveTokens = z.number().int().positive()

/**
 * Every field of a provider entry. Defaults are applied by `applyDefaults`, not here, so a user's
 * partial override of a preset can reuse the same field rules. See docs/providers-config.md.
 */
const fields = {
  id: ProviderId,
  name: z.string().min(1),
  kind: z.enum(['openai-compatible', 'ollama', 'anthropic', 'local']),
  baseUrl: HttpUrl,
  model: z.string().min(1),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
    .optional(),
  contextWindow: PositiveTokens.optional(),
  maxOutputTokens: PositiveTokens.optional(),
  interactionMode: z.enum(['api', 'cli']).optional(),
  cacheType: z.enum(['none', 'prefix', 'anthropic']).optional(),
  supportsTools: z.boolean().optional(),
  supportsVision: z.boolean().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  temperature: z.number().min(0).max(2).optional(),
}

/** A complete provider entry (factory presets, and new providers in the user's file). */
export const ProviderPresetSchema = z.strictObject(fields)
export type ProviderPreset = z.infer<typeof ProviderPresetSchema>

/** `providers.json` at the repository root: the factory presets. */
export const PresetsFileSchema = z
  .array(ProviderPresetSchema)
  .min(1)
  .superRefine((presets, ctx) => {
    const seen = new Set<string>()
    presets.forEach((preset, index) => {
      if (seen.has(preset.id))
        ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate id "${preset.id}"` })
      seen.add(preset.id)
    })
  })

/** An entry of the user's `<data-dir>/providers.json`: only `id` is required when it changes a preset. */
export const ProviderOverrideEntrySchema = z
  .strictObject({ ...fields, id: ProviderId })
  .partial()
  .required({
    id: true,
  })
export type ProviderOverrideEntry = z.infer<typeof ProviderOverrideEntrySchema>

export const UserProvidersFileSchema = z.array(ProviderOverrideEntrySchema)
