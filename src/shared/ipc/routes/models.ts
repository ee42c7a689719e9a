import { z } from 'zod'
import { route } from '../defineContract'
import { Binary } from './chat'

/** A model id in `<data-dir>/models/` (the file is `<id>.gguf`). */
export const ModelIdInput = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,79}$/, 'lowercase letters, digits, ".", "_" or "-"')

/** One installed model. Only the file's name crosses to the renderer, never a host path. */
export const InstalledModelSummary = z.object({
  id: z.string(),
  name: z.string(),
  fileName: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  /** The active provider is the built-in local model and this is its model. */
  inUse: z.boolean(),
  installedAt: z.string().nullable(),
})
export type InstalledModelSummary = z.infer<typeof InstalledModelSummary>

/** Expected generation speed on this machine's CPU: an estimate, see docs/providers-config.md. */
export const SpeedEstimate = z.object({
  wordsPerSecond: z.number().nonnegative(),
  tokensPerSecond: z.number().nonnegative(),
  /** Reading the weights from memory, or the CPU's arithmetic. */
  limitedBy: z.enum(['memory', 'cpu']),
  /** A usable GPU back-end (`cuda`, `vulkan`, `metal`): the model will likely run faster than estimated. */
  gpu: z.string().nullable(),
})
export type SpeedEstimate = z.infer<typeof SpeedEstimate>

export const CatalogueModel = z.object({
  id: z.string(),
  name: z.string(),
  sizeBytes: z.number().int().positive(),
  licence: z.string(),
  parameters: z.string(),
  quantisation: z.string(),
  minRamGiB: z.number().positive(),
  notes: z.string().nullable(),
  installed: z.boolean(),
  /** This computer's memory is at least `minRamGiB`. */
  fitsMemory: z.boolean(),
})
export type CatalogueModel = z.infer<typeof CatalogueModel>

/** A catalogue model's expected speed here; null when the machine could not be measured. */
export const ModelSpeed = z.object({ id: z.string(), speed: SpeedEstimate.nullable() })
export type ModelSpeed = z.infer<typeof ModelSpeed>

export const DownloadState = z.enum(['downloading', 'done', 'failed', 'cancelled'])

/** A download's progress; `speed` in bytes per second. */
export const ModelProgress = z.object({
  id: z.string(),
  name: z.string(),
  state: DownloadState,
  receivedBytes: z.number().nonnegative(),
  totalBytes: z.number().nonnegative().nullable(),
  speed: z.number().nonnegative(),
  etaSeconds: z.number().nonnegative().nullable(),
  /** Why it failed or was cancelled. */
  message: z.string().nullable(),
})
export type ModelProgress = z.infer<typeof ModelProgress>

/** What the IPC transport carries in one request (64 MiB body limit, base64 on the web host). */
export const MAX_IMPORT_BYTES = 40 * 1024 * 1024

export const OllamaStatusSummary = z.object({
  running: z.boolean(),
  url: z.string(),
  models: z.array(z.object({ name: z.string(), sizeBytes: z.number().nonnegative().nullable() })),
  /** Why it is not running, and what to do. */
  error: z.string().nullable(),
  hint: z.string().nullable(),
})
export type OllamaStatusSummary = z.infer<typeof OllamaStatusSummary>

/** One progress line of a pull through Ollama (`/api/pull`), then its end. */
export const OllamaPullProgressEvent = z.object({
  model: z.string(),
  state: z.enum(['pulling', 'done', 'failed']),
  /** Ollama's own status line, e.g. `pulling manifest`, `verifying sha256 digest`. */
  status: z.string(),
  completedBytes: z.number().nonnegative().nullable(),
  totalBytes: z.number().nonnegative().nullable(),
  /** Why it failed. */
  message: z.string().nullable(),
})
export type OllamaPullProgressEvent = z.infer<typeof OllamaPullProgressEvent>

export const modelRoutes = {
  'models.list': route({
    summary: 'Installed local models (file name, size, which one the local provider uses).',
    input: z.void(),
    output: z.array(InstalledModelSummary),
  }),
  'models.catalogue': route({
    summary: 'The recommended models of models.json, marked installed and whether they fit in memory.',
    input: z.void(),
    output: z.array(CatalogueModel),
  }),
  'models.speeds': route({
    summary:
      'Expected speed of each catalogue model on this machine (measured once, so the catalogue never waits for it).',
    input: z.void(),
    output: z.array(ModelSpeed),
  }),
  'models.downloads': route({
    summary: 'Downloads in progress or finished since the app started.',
    input: z.void(),
    output: z.array(ModelProgress),
  }),
  'models.pull': route({
    summary: 'Starts downloading a catalogue model; progress arrives as models.progress events.',
    input: z.object({ id: ModelIdInput }),
    output: ModelProgress,
  }),
  'models.cancel': route({
    summary: 'Cancels a download (the partial file stays, to resume later).',
    input: z.object({ id: ModelIdInput }),
    output: z.object({ cancelled: z.boolean() }),
  }),
  'models.import': route({
    summary: `Installs a .gguf file sent as bytes (at most ${MAX_IMPORT_BYTES / 1024 / 1024} MiB; larger: bureau models import).`,
    input: z.object({
      fileName: z.string().min(1).max(255),
      bytes: Binary,
    }),
    output: InstalledModelSummary,
  }),
  'models.delete': route({
    summary: 'Deletes an installed model file.',
    input: z.object({ id: ModelIdInput }),
    output: z.object({ deleted: z.boolean() }),
  }),
  'models.use': route({
    summary: 'Makes an installed model the model of the built-in local provider and that provider active.',
    input: z.object({ id: ModelIdInput }),
    output: z.object({ providerId: z.string(), model: z.string() }),
  }),
  'ollama.status': route({
    summary: 'Probes Ollama at localModels.ollamaUrl and lists its installed models.',
    input: z.void(),
    output: OllamaStatusSummary,
  }),
  'ollama.pull': route({
    summary: 'Starts pulling a model through Ollama; ollama.progress events follow until done or failed.',
    input: z.object({ model: z.string().trim().min(1).max(200) }),
    output: z.object({ started: z.literal(true) }),
  }),
}

export const modelEvents = {
  'models.progress': ModelProgress,
  'ollama.progress': OllamaPullProgressEvent,
}
