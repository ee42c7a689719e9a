import { z } from 'zod'
import { route } from '../defineContract'
import { AgentPathInput } from './workspace'

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

/** The converted Markdown around a cited passage, for the Workspace page's preview. */
export const KnowledgePassage = z.object({
  path: z.string(),
  format: z.string(),
  before: z.string(),
  passage: z.string(),
  after: z.string(),
})
export type KnowledgePassage = z.infer<typeof KnowledgePassage>

export const knowledgeRoutes = {
  'knowledge.status': route({
    summary: 'Progress and health of the workspace index.',
    input: z.void(),
    output: KnowledgeStatus,
  }),
  'knowledge.pause': route({
    summary: 'Pauses (true) or resumes (false) background indexing.',
    input: z.object({ paused: z.boolean() }),
    output: KnowledgeStatus,
  }),
  'knowledge.passage': route({
    summary: 'The converted Markdown of a file around a passage (character offsets from a search result).',
    input: z.object({
      path: AgentPathInput,
      start: z.number().int().min(0),
      end: z.number().int().min(0),
    }),
    output: KnowledgePassage,
  }),
}

export const knowledgeEvents = {
  'knowledge.status': KnowledgeStatus,
}
