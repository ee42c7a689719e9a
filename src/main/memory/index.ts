export { bm25Index, terms } from './bm25'
export {
  appliesIn,
  MEMORY_FILE_NAME,
  type MemoryChange,
  type MemoryFilter,
  type MemoryStore,
  type MemoryStoreOptions,
  type NewMemory,
  openMemoryStore,
  workspaceScope,
} from './memoryStore'
export { secretReason, secretRefusal } from './secretCheck'
export {
  MEMORY_HEADER,
  type MemorySelection,
  nearestByMeaning,
  type SelectOptions,
  selectMemories,
} from './selectMemories'
export {
  type EmbedderSource,
  fuseRankings,
  nearestMemories,
  type TextEmbedder,
  VectorCache,
} from './semanticRanking'
export type { MemoryToolsetEnvironment } from './toolset/memoryToolset'

/** The `memory` toolset, loaded on demand. */
export async function loadMemoryToolset(env: import('./toolset/memoryToolset').MemoryToolsetEnvironment) {
  const { createMemoryToolset } = await import('./toolset/memoryToolset')
  return createMemoryToolset(env)
}

/** The checks a proposal passes before the user is asked (paused, close memories). */
export async function checkMemoryProposal(
  ...args: Parameters<typeof import('./toolset/memoryToolset').checkProposal>
): Promise<string | undefined> {
  const { checkProposal } = await import('./toolset/memoryToolset')
  return checkProposal(...args)
}
export { memoryHandlers, UNDO_FORGET_MS } from './memoryHandlers'
