import { z } from 'zod'
import { ErrorPayloadSchema } from '../../errors'
import { route } from '../defineContract'

/** One provider as the Settings page and `bureau providers list` show it. Never carries the key. */
export const ProviderSummary = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['openai-compatible', 'ollama', 'anthropic', 'local']),
  baseUrl: z.string(),
  model: z.string(),
  /** Configured context window in tokens; null = read from the server (Ollama) or assumed. */
  contextWindow: z.number().int().positive().nullable(),
  /** The interaction mode in effect and whether it was set explicitly or chosen by context window. */
  interactionMode: z.enum(['api', 'cli']),
  interactionModeSource: z.enum(['explicit', 'auto']),
  cacheType: z.enum(['none', 'prefix', 'anthropic']),
  supportsTools: z.boolean(),
  supportsVision: z.boolean(),
  /** The environment variable that can hold the key, if the provider names one. */
  apiKeyEnv: z.string().nullable(),
  /** Whether a key is available (environment or settings); the key itself is never sent. */
  keySet: z.boolean(),
  /** Whether the provider expects a key (cloud providers). */
  needsKey: z.boolean(),
  active: z.boolean(),
  /**
   * For the active provider: what decided it (`environment`: BUREAU_PROVIDER, `settings`:
   * provider.active, `default`: neither); null for the others.
   */
  activeSource: z.enum(['environment', 'settings', 'default']).nullable(),
  /** Added or changed by the user's providers.json. */
  custom: z.boolean(),
  /**
   * The preset's own base URL, model and context window, before the user's settings; null for a
   * provider the user added. Settings labels these as "Preset", never the values the user saved.
   */
  preset: z
    .object({ baseUrl: z.string(), model: z.string(), contextWindow: z.number().int().positive().nullable() })
    .nullable()
    .optional(),
  /** A provider the user added (Settings → Add provider, or a new id in providers.json): it can be removed. */
  removable: z.boolean().optional(),
  /** The provider's own sampling (null: the server's default), shown beside a conversation's own. */
  temperature: z.number().nullable().optional(),
  maxOutputTokens: z.number().int().positive().nullable().optional(),
})
export type ProviderSummary = z.infer<typeof ProviderSummary>

export const ProviderTestResult = z.object({
  id: z.string(),
  ok: z.boolean(),
  /** Round-trip time of the test request in milliseconds. */
  latencyMs: z.number().nonnegative(),
  model: z.string(),
  /** The start of the model's answer (ok) or null. */
  reply: z.string().nullable(),
  error: ErrorPayloadSchema.nullable(),
})
export type ProviderTestResult = z.infer<typeof ProviderTestResult>

/** What is on the Settings screen before saving: tested instead of the saved values. */
export const ProviderDraft = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  model: z.string().trim().min(1).max(200).optional(),
  /** A key typed but not saved yet; never stored by the test. */
  apiKey: z.string().trim().min(1).max(4096).optional(),
})
export type ProviderDraft = z.infer<typeof ProviderDraft>

/** One provider in the chat's model picker, with the models it can run here. */
export const ModelChoiceGroup = z.object({
  providerId: z.string(),
  name: z.string(),
  kind: ProviderSummary.shape.kind,
  /** The model used when the conversation names none (settings, then preset). */
  defaultModel: z.string(),
  models: z.array(z.string()),
  /** False when the provider cannot answer now (no key; Ollama not running; no local model installed). */
  usable: z.boolean(),
  reason: z.string().nullable(),
  active: z.boolean(),
})
export type ModelChoiceGroup = z.infer<typeof ModelChoiceGroup>

/** A named OpenAI-compatible server the user adds: LM Studio, vLLM, llama.cpp's server, a company gateway. */
export const CustomProviderInput = z.object({
  /** Absent: a new provider, its id made from the name. */
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'Use lowercase letters, digits, "-" and "_".')
    .optional(),
  name: z.string().trim().min(1, 'Enter a name.').max(80, 'At most 80 characters.'),
  baseUrl: z.url({ protocol: /^https?$/, error: 'Enter a URL that starts with http:// or https://.' }),
  model: z.string().trim().min(1, 'Enter a model name.').max(200, 'At most 200 characters.'),
  contextWindow: z
    .number()
    .int('A whole number of tokens.')
    .min(512, 'At least 512 tokens.')
    .max(100_000_000, 'At most 100,000,000 tokens.')
    .optional(),
})
export type CustomProviderInput = z.infer<typeof CustomProviderInput>

/** The models a server lists at `GET <base URL>/models`. */
export const ProviderModelList = z.object({
  id: z.string(),
  models: z.array(z.string()),
  /** Why no list came back (no key, unreachable, not supported); the model field stays free text. */
  error: z.string().nullable(),
})
export type ProviderModelList = z.infer<typeof ProviderModelList>

export const providerRoutes = {
  'providers.models': route({
    summary:
      'The model picker: every provider with its models (Ollama: installed models; local: installed GGUF files) and whether it is usable.',
    input: z.void(),
    output: z.array(ModelChoiceGroup),
  }),
  'providers.list': route({
    summary:
      'Provider presets merged with the user overrides, the active one marked, keys only as set/unset.',
    input: z.void(),
    output: z.array(ProviderSummary),
  }),
  'providers.test': route({
    summary:
      'Sends one short request to a provider (default: the active one) and reports the latency; `draft` tests unsaved values.',
    input: z.object({ id: z.string().min(1).max(64).optional(), draft: ProviderDraft.optional() }),
    output: ProviderTestResult,
  }),
  'providers.listModels': route({
    summary:
      'The models an OpenAI-compatible provider lists at GET <base URL>/models; `draft` uses the base URL and key on screen (without an id: only those).',
    // Without an id: a server not saved yet, reached with the draft's base URL and key only.
    input: z.object({ id: z.string().min(1).max(64).optional(), draft: ProviderDraft.optional() }),
    output: ProviderModelList,
  }),
  'providers.saveCustom': route({
    summary:
      "Adds or replaces an OpenAI-compatible provider in the user's providers.json; answers with the provider as read back.",
    input: CustomProviderInput,
    output: ProviderSummary,
  }),
  'providers.removeCustom': route({
    summary: "Removes a provider the user added (never a built-in preset) from the user's providers.json.",
    input: z.object({ id: z.string().min(1).max(64) }),
    output: z.object({ id: z.string(), removed: z.literal(true) }),
  }),
}
