import { z } from 'zod'
import { KnowledgeStatus } from '../../../shared/ipc'
import { defineToolset, method } from '../../tools'
import type { Workspace } from '../../workspace'
import { Anchor } from '../chunking/anchor'
import type { KnowledgeService } from '../service/knowledgeService'
import { searchNote } from './searchNote'

export interface KnowledgeToolsetEnvironment {
  /** The knowledge service of the session's workspace (the app's background index for its own). */
  readonly knowledge: (workspace: Workspace) => KnowledgeService
}

const Passage = z.object({
  n: z.number().int().describe('Cite the passage as [n] in the answer.'),
  path: z.string(),
  location: z.string().describe('Where in the file: page, sheet and rows, slide, heading path.'),
  anchor: Anchor,
  score: z.number(),
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
})

const Report = z.object({
  scanned: z.number().int(),
  indexed: z.number().int(),
  unchanged: z.number().int(),
  removed: z.number().int(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
  truncated: z.boolean(),
  embeddingError: z.string().optional(),
})

export function createKnowledgeToolset(env: KnowledgeToolsetEnvironment) {
  return defineToolset({
    name: 'knowledge',
    summary: "Searches the text of all the user's workspace documents; answers cite the passages found.",
    description:
      'A full-text (and, with embeddings, semantic) index of every document in the workspace, kept up to date in the background. ' +
      'Search before answering questions about "my documents", then read the cited file with convert to_markdown when a passage is not enough.',
    methods: {
      search: method({
        description:
          'Finds the passages that best match the query, best first, with their file, location and a short text. Cite them as [n].',
        input: z.object({
          query: z.string().min(1).max(2_000),
          top_k: z.number().int().min(1).max(50).default(8),
          path_glob: z
            .string()
            .max(500)
            .optional()
            .describe('Only files matching it, e.g. "*.pdf" or "reports/**".'),
        }),
        output: z.object({
          mode: z.enum(['bm25', 'hybrid']),
          passages: z.array(Passage),
          warning: z.string().optional(),
          indexing: z
            .string()
            .optional()
            .describe(
              'Present when the results may be incomplete: the index is being built, paused, failed or off.',
            ),
        }),
        examples: [{ query: 'notice period of the lease', top_k: 5 }],
        risk: 'read',
        run: async ({ query, top_k, path_glob }, ctx) => {
          const outcome = await env
            .knowledge(ctx.workspace)
            .search({ query, topK: top_k, pathGlob: path_glob, signal: ctx.signal })
          const note = searchNote(outcome.status, outcome.synced)
          return {
            mode: outcome.mode,
            passages: outcome.passages.map((passage, index) => ({ n: index + 1, ...passage })),
            ...(outcome.warning ? { warning: outcome.warning } : {}),
            ...(note ? { indexing: note } : {}),
          }
        },
      }),
      status: method({
        description:
          'Says how far the index is: files done and to do, the current file, errors per file, BM25 or hybrid.',
        input: z.object({}),
        output: KnowledgeStatus,
        examples: [{}],
        risk: 'read',
        run: (_input, ctx) => env.knowledge(ctx.workspace).status(),
      }),
      reindex: method({
        description:
          'Indexes a file or folder again from scratch (or the whole workspace without path) and returns what was done.',
        input: z.object({ path: z.string().optional() }),
        output: Report,
        examples: [{ path: '/reports' }],
        risk: 'read',
        run: ({ path }, ctx) => env.knowledge(ctx.workspace).reindex(path),
      }),
    },
  })
}
