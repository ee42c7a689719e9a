import type { KnowledgeSettings } from '../../../shared/settings'
import type { ProviderService } from '../../llm'
import { type Embedder, endpointEmbedder } from './embedder'

/**
 * The embedder the settings ask for: `provider` uses the active provider's endpoint (OpenAI-compatible
 * `/embeddings` or Ollama `/api/embed`) with `knowledge.embeddingModel`. Providers without an
 * embeddings endpoint (Anthropic, local GGUF) are an error the status shows; search falls back to BM25.
 */
export function providerEmbedder(
  settings: () => KnowledgeSettings,
  providers: () => Promise<Pick<ProviderService, 'resolve'>>,
): () => Promise<Embedder | undefined> {
  let cached: { key: string; embedder: Embedder } | undefined
  return async () => {
    const knowledge = settings()
    if (knowledge.embeddings === 'off') return undefined
    const provider = await (await providers()).resolve()
    if (provider.kind !== 'openai-compatible' && provider.kind !== 'ollama')
      throw new Error(
        `${provider.name} has no embeddings endpoint Bureau can use (only OpenAI-compatible and Ollama providers do)`,
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
