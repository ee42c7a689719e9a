import { z } from 'zod'

/**
 * `off`: BM25 only; `provider`: the active provider's embeddings endpoint (OpenAI-compatible or Ollama);
 * `local`: an installed GGUF embedding model run by the built-in llama.cpp (`embeddingModel` is its id).
 */
export const KnowledgeEmbeddings = z.enum(['off', 'provider', 'local'])
export type KnowledgeEmbeddings = z.infer<typeof KnowledgeEmbeddings>

export const KnowledgeSettings = z.looseObject({
  /** Index the workspace in the background (the seeds' SkipIndexingOnStartup, inverted). */
  enabled: z.boolean().default(true),
  /** Where vectors come from; full-text search works without any. */
  embeddings: KnowledgeEmbeddings.default('off'),
  /**
   * The endpoint's embedding model (e.g. `text-embedding-3-small`, `nomic-embed-text`), or with `local`
   * the id of an installed GGUF model (Settings → Local models, `bureau models list`).
   */
  embeddingModel: z.string().max(200).default('text-embedding-3-small'),
  /** Read pictures with OCR for the index (slow: off by default). */
  indexImages: z.boolean().default(false),
  /** Pause between files while a chat is running, so indexing never competes with an answer. */
  chatThrottleMs: z.number().int().min(0).max(60_000).default(500),
  /** Files larger than this are skipped and reported (bytes). */
  maxFileBytes: z
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(64 * 1024 * 1024),
  /** The most files one workspace index takes; the rest are reported as skipped. */
  maxFiles: z.number().int().min(1).max(1_000_000).default(50_000),
})
export type KnowledgeSettings = z.output<typeof KnowledgeSettings>
