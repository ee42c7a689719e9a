import type { KnowledgeSettings } from '../../../shared/settings'
import type { ProviderService } from '../../llm'
import { type Embedder, endpointEmbedder, type LocalVectors, localEmbedder } from './embedder'

/**
 * The embedder the settings ask for: `provider` uses the active provider's endpoint (OpenAI-compatible
 * `/embeddings` or Ollama `/api/embed`) with `knowledge.embeddingModel`; `local` runs that installed GGUF
 * model in the built-in llama.cpp. Providers without an embeddings endpoint (Anthropic, the local chat
 * provider) are an error the status shows; search falls back to BM25.
 */
export function providerEmbedder(
  settings: () => KnowledgeSettings,
  providers: () => Promise<Pick<ProviderService, 'resolve'>>,
  local?: LocalVectors,
): () => Promise<Embedder | undefined> {
  let cached: { key: string; embedder: Embedder } | undefined
  return async () => {
    const knowledge = settings()
    if (knowledge.embeddings === 'off') return undefined
    if (knowledge.embeddings === 'local') {
      if (!local) throw new Error('local embedding models run only in the app and the CLI')
      const key = `local|${knowledge.embeddingModel}`
      if (cached?.key !== key) cached = { key, embedder: localEmbedder(knowledge.embeddingModel, local) }
      return cached.embedder
    }
    const provider = await (await providers()).resolve()
    if (provider.kind !== 'openai-compatible' && provider.kind !== 'ollama')
      throw new Error(
        `${provider.name} has no embeddings endpoint Bureau can use (only OpenAI-compatible and Ollama providers do); set knowledge.embeddings to local with a GGUF embedding model instead`,
      )
    const key = `${provider.kind}|${provider.baseUrl}|${knowledge.embeddingModel}|${provider.apiKey ?? ''}`
    if (cached?.key !== key)
      cached = {
        key,
        embedder: endpointEmbedder({
          kind: provider.kind,
          baseUrl: provider.baseUrl,
          model: knowledge.embeddingModel,
          apiKey: provider.apiKey,
          headers: provider.headers,
        }),
      }
    return cached.embedder
  }
}
