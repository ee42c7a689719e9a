import { z } from 'zod'

export const KnowledgeState = z.enum(['off', 'idle', 'indexing', 'paused', 'failed'])

/** What `knowledge status`, `bureau index status` and the Workspace page show. */
export const KnowledgeStatus = z.object({
  state: KnowledgeState,
  /** Files done and to do in the run under way (or the last run). */
  done: z.number().int(),
  total: z.number().int(),
  current: z.string().optional(),
  /** Files in the index and their passages. */
  files: z.number().int(),
  passages: z.number().int(),
  /** Changed paths waiting for the next run. */
  queued: z.number().int(),
  mode: z.enum(['bm25', 'hybrid']),
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
  lastBuild: z.string().optional(),
  embeddingError: z.string().optional(),
  /** The index on disk was discarded (damaged or older format) and is being rebuilt. */
  rebuiltBecause: z.string().optional(),
  /** More files than `knowledge.maxFiles` (or the 50,000-entry walk): the rest are not indexed. */
  truncated: z.boolean(),
  throttled: z.boolean(),
  message: z.string().optional(),
})
export type KnowledgeStatus = z.infer<typeof KnowledgeStatus>
