import { z } from 'zod'

/**
 * How the chat's agent works. Sub-agents: `all` offers every registered toolset as a sub-agent too
 * (one delegation line each; the model may hand a long browsing or spreadsheet job to an isolated
 * context), `none` offers none, or a list of toolset names.
 */
export const AgentSettings = z.looseObject({
  maxIterations: z.number().int().min(1).max(500).default(50),
  subagents: z
    .union([z.enum(['all', 'none']), z.array(z.string().regex(/^[a-z][a-z0-9_]*$/, 'not a toolset name'))])
    .default('all'),
  /** The user's instruction for every conversation, added at the end of the system prompt. */
  instructions: z.string().max(8000).default(''),
})
export type AgentSettings = z.output<typeof AgentSettings>
