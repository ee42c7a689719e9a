// Public API of the provider layer. Other services import only from here.

export { Anonymizer } from './anonymize/anonymizer'
export { createLlmClient } from './clients/createClient'
export { estimateTextTokens } from './history/estimateTokens'
export { releaseLocalModel } from './local/releaseLocalModel'
export { ollamaHandlers } from './ollama/ollamaHandlers'
export { probeOllama } from './ollama/ollamaStatus'
export { providerHandlers } from './providers/providerHandlers'
export type { ProviderService } from './providers/providerService'
export {
  createSettingsProviders,
  type LocalEmbeddingSource,
  settingsLocalEmbeddings,
} from './providers/settingsAdapter'
export { LlmSession, type ToolProtocol, type TurnOptions, type TurnResult } from './session/llmSession'
export type { LlmClient, ToolCall, ToolSpec, Usage } from './types'
