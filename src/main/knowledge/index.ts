export { KnowledgeStatus } from '../../shared/ipc'
export { anchorLabel } from './chunking/anchor'
export { type Embedder, endpointEmbedder } from './embeddings/embedder'
export { providerEmbedder } from './embeddings/providerEmbedder'
export type { SyncReport } from './indexer/knowledgeIndex'
export type { Passage, SearchOutcome } from './search/searchIndex'
export {
  createKnowledgeService,
  type KnowledgeService,
  type KnowledgeServiceOptions,
  workspaceIndexId,
} from './service/knowledgeService'
export { type SessionKnowledge, sessionKnowledge } from './service/sessionKnowledge'
export type { KnowledgeToolsetEnvironment } from './toolset/knowledgeToolset'

/** The `knowledge` toolset, loaded on demand. */
export async function loadKnowledgeToolset(
  env: import('./toolset/knowledgeToolset').KnowledgeToolsetEnvironment,
) {
  const { createKnowledgeToolset } = await import('./toolset/knowledgeToolset')
  return createKnowledgeToolset(env)
}
export { knowledgeHandlers } from './service/knowledgeHandlers'
