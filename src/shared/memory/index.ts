// Memories: short facts the user keeps across conversations. Pure zod schemas shared by main (the store,
// the toolset, the IPC routes) and the renderer (Settings → Memory, the proposal card).
import { z } from 'zod'

export const MEMORY_FILE_VERSION = 1
/** One memory is a short fact, not a document. */
export const MAX_MEMORY_CHARS = 500
export const MAX_MEMORIES = 10_000
export const DEFAULT_MEMORY_BUDGET_TOKENS = 300

export const MemoryText = z
  .string()
  .trim()
  .min(1, 'A memory needs some text.')
  .max(MAX_MEMORY_CHARS, `A memory is a short fact: at most ${MAX_MEMORY_CHARS} characters.`)

/** Everywhere, or only while one workspace folder (its absolute path) is open. */
export const MemoryScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('everywhere') }),
  z.object({ kind: z.literal('workspace'), folder: z.string().min(1).max(4096) }),
])
export type MemoryScope = z.infer<typeof MemoryScope>

/** Who wrote a memory: the model in a conversation (accepted by the user), Settings, the CLI, an import. */
export const MemorySource = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('conversation'),
    conversationId: z.string().max(200).optional(),
    title: z.string().max(300).optional(),
  }),
  z.object({ kind: z.literal('settings') }),
  z.object({ kind: z.literal('cli') }),
  z.object({ kind: z.literal('import') }),
])
export type MemorySource = z.infer<typeof MemorySource>

export const Memory = z.object({
  id: z.string().min(1).max(64),
  text: MemoryText,
  scope: MemoryScope,
  source: MemorySource,
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Memory = z.infer<typeof Memory>

export const MemoryPreferences = z.object({
  /** Paused: nothing is added to prompts and the model cannot store anything. */
  paused: z.boolean().default(false),
  /** Store the model's proposals without showing the card. */
  saveWithoutAsking: z.boolean().default(false),
  /** The most tokens (o200k_base) the memory block may add to a system prompt. */
  budgetTokens: z.number().int().min(0).max(4000).default(DEFAULT_MEMORY_BUDGET_TOKENS),
})
export type MemoryPreferences = z.infer<typeof MemoryPreferences>

/** `<data-dir>/memories.json`. Loose at the top so keys of a newer Bureau survive. */
export const MemoryFile = z.looseObject({
  schemaVersion: z.number().int().min(1).default(MEMORY_FILE_VERSION),
  preferences: MemoryPreferences.prefault({}),
  memories: z.array(Memory).max(MAX_MEMORIES).default([]),
})
export type MemoryFile = z.output<typeof MemoryFile>

/** What export writes and import reads: the memories alone (preferences stay on the machine). */
export const MemoryExport = z.object({
  format: z.literal('bureau-memories'),
  version: z.literal(1),
  exportedAt: z.string(),
  memories: z.array(Memory).max(MAX_MEMORIES),
})
export type MemoryExport = z.infer<typeof MemoryExport>

/** The memories a request used: in the step timeline and on the chip under the answer. */
export const UsedMemory = z.object({ id: z.string(), text: z.string() })
export type UsedMemory = z.infer<typeof UsedMemory>

/** The timeline step that lists the memories a run was given (an agent step, not a toolset call). */
export const MEMORY_RECALL_STEP = 'agent.memories'
