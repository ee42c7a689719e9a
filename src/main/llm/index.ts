// Public API of the provider layer. Other services import only from here.

export { anonymizeMessages } from './anonymize/anonymizeMessages'
export { Anonymizer, type StreamRestorer } from './anonymize/anonymizer'
export { ANONYMIZATION_INSTRUCTION, placeholderToken } from './anonymize/placeholderToken'
export { attachDynamicContext, layoutMessages } from './caching/promptLayout'
export type { ClientOptions, Sleep } from './clients/clientOptions'
export { DEFAULT_CONTEXT_WINDOW, OLLAMA_AUTO_CONTEXT_CAP } from './clients/contextWindow'
export { createLlmClient, publicProvider } from './clients/createClient'
export { LOCAL_DEFAULT_MAX_OUTPUT } from './clients/localDriver'
export { Conversation, type HistoryMessage, type UserTurn } from './history/conversation'
export { estimateMessagesTokens, estimateTextTokens } from './history/estimateTokens'
export { type TrimResult, trimHistory } from './history/trimHistory'
export { closeCall, minimalValue } from './local/closeCall'
export { type LocalModelHost, sharedLocalRuntime } from './local/localHost'
export {
  DEFAULT_IDLE_UNLOAD_MS,
  LOCAL_AUTO_CONTEXT_CAP,
  type LoadedModel,
  LocalRuntime,
  type LocalRuntimeOptions,
} from './local/localRuntime'
export { toGbnfSchema, toolCallSchema } from './local/toolGrammar'
export {
  OLLAMA_INSTALL_HINT,
  type OllamaModel,
  type OllamaPullProgress,
  type OllamaStatus,
  probeOllama,
  pullOllamaModel,
} from './ollama/ollamaStatus'
export { BUILTIN_PRESETS, DEFAULT_PROVIDER_ID } from './providers/builtinPresets'
export { type EnvOverrides, readEnvOverrides } from './providers/envOverrides'
export { loadProviderCatalog, type ProviderCatalog } from './providers/loadCatalog'
export { type ProviderPreset, ProviderPresetSchema } from './providers/presetSchema'
export { providerHandlers } from './providers/providerHandlers'
export {
  createProviderService,
  type ProviderService,
  type ProviderServiceOptions,
} from './providers/providerService'
export {
  createSettingsProviders,
  providerKeyEnvSource,
  providerSettingsFrom,
  settingsLocalHost,
} from './providers/settingsAdapter'
export {
  apiKeySecretName,
  type ProviderSettingsOverride,
  type ProviderSettingsSource,
  type StaticSettings,
  staticSettingsSource,
} from './providers/settingsSource'
export {
  LlmSession,
  type LlmSessionOptions,
  type SessionEvent,
  type ToolProtocol,
  type TurnOptions,
  type TurnResult,
} from './session/llmSession'
export {
  DONE_METHOD,
  type JsonProtocolReply,
  jsonProtocolInstructions,
  parseJsonProtocolReply,
  toJsonProtocolMessages,
} from './toolProtocol/jsonProtocol'
export type {
  AssistantMessage,
  CacheType,
  ChatImage,
  ChatMessage,
  ChatRequest,
  ChatResult,
  FinishReason,
  LlmClient,
  ProviderKind,
  PublicProvider,
  ResolvedProvider,
  StreamEvent,
  ToolCall,
  ToolSpec,
  Usage,
} from './types'
