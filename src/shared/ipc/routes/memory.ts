import { z } from 'zod'
import { Memory, MemoryPreferences, MemoryText } from '../../memory'
import { route } from '../defineContract'

/** "Everywhere", or the workspace folder open now. */
const ScopeChoice = z.enum(['everywhere', 'workspace'])

export const MemoryListing = z.object({
  memories: z.array(Memory),
  preferences: MemoryPreferences,
  /** The workspace folder open now: a memory scoped to it says "this workspace". */
  workspace: z.string(),
})
export type MemoryListing = z.infer<typeof MemoryListing>

export const memoryRoutes = {
  'memory.list': route({
    summary:
      'Every memory (newest first, or best first for a query), the preferences and the current workspace.',
    input: z.object({ query: z.string().max(500).optional() }).optional(),
    output: MemoryListing,
  }),
  'memory.add': route({
    summary: 'Stores a memory written by the user; returns it as stored. Secrets are refused.',
    input: z.object({ text: MemoryText, scope: ScopeChoice.default('everywhere') }),
    output: Memory,
  }),
  'memory.update': route({
    summary: 'Changes a memory’s text or scope; returns it as stored.',
    input: z.object({
      id: z.string().min(1).max(64),
      text: MemoryText.optional(),
      scope: ScopeChoice.optional(),
    }),
    output: Memory,
  }),
  'memory.delete': route({
    summary: 'Deletes one memory and returns it (the window can put it back with memory.restore).',
    input: z.object({ id: z.string().min(1).max(64) }),
    output: Memory,
  }),
  'memory.forgetAll': route({
    summary: 'Forgets every memory; memory.undoForget with the token puts them back for a minute.',
    input: z.object({}).optional(),
    output: z.object({ count: z.number().int(), undoToken: z.string(), undoUntil: z.string() }),
  }),
  'memory.undoForget': route({
    summary: 'Puts back the memories of a forget-everything (within a minute).',
    input: z.object({ undoToken: z.string().min(1).max(100) }),
    output: z.object({ restored: z.number().int() }),
  }),
  'memory.restore': route({
    summary: 'Puts back deleted memories (undo of delete).',
    input: z.object({ memories: z.array(Memory).max(10_000) }),
    output: z.object({ restored: z.number().int() }),
  }),
  'memory.preferences': route({
    summary: 'Pause memory, save proposals without asking, the prompt budget in tokens.',
    input: MemoryPreferences.partial(),
    output: MemoryPreferences,
  }),
  'memory.export': route({
    summary: 'Every memory as a JSON export.',
    input: z.object({}).optional(),
    output: z.object({ json: z.string() }),
  }),
  'memory.import': route({
    summary: 'Adds the memories of a JSON export (duplicates skipped, secrets refused).',
    input: z.object({ json: z.string().min(1).max(20_000_000) }),
    output: z.object({ added: z.number().int(), skipped: z.number().int(), refused: z.number().int() }),
  }),
}
