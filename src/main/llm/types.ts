/** Provider-neutral chat types: every client translates from and to these. */

export interface ToolCall {
  /** The provider's id for the call (generated when the provider sends none, e.g. Ollama). */
  id: string
  name: string
  /** The arguments exactly as the model wrote them (JSON text, possibly broken: the tools pipeline repairs it). */
  arguments: string
}

/** A picture sent with a user message; only providers with `supportsVision` accept it. */
export interface ChatImage {
  /** `image/png`, `image/jpeg`, `image/gif` or `image/webp` (what every vision API accepts). */
  mimeType: string
  data: Uint8Array
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: readonly ChatImage[] }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string }

/** A function the model may call (native tool calling). `parameters` is a JSON Schema object. */
export interface ToolSpec {
  name: string
  description: string
  parameters: Record<string, unknown>
  /**
   * A command-line tool (CLI mode's `cli`): its string parameter `argument` starts with one of
   * `prefixes` (a toolset and method, or a help word), then ends or goes on after a space. A driver
   * that constrains decoding (`local`) holds the model to it; providers get only the three fields above.
   */
  command?: { argument: string; prefixes: readonly string[] }
}

/** Token counts normalised over OpenAI, DeepSeek, Anthropic and Ollama. */
export interface Usage {
  /** All prompt tokens, cached ones included (Anthropic's uncached `input_tokens` plus its cache counts). */
  inputTokens: number
  outputTokens: number
  /** Prompt tokens served from the provider's cache (`cached_tokens`, `prompt_cache_hit_tokens`, `cache_read_input_tokens`). */
  cachedInputTokens: number
  /** Prompt tokens written to the cache (Anthropic `cache_creation_input_tokens`), 0 elsewhere. */
  cacheWriteTokens: number
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other'

export interface AssistantMessage {
  role: 'assistant'
  content: string
  toolCalls: ToolCall[]
}

export interface ChatResult {
  message: AssistantMessage
  finishReason: FinishReason
  usage: Usage
  /** The model that answered, as the provider reported it. */
  model: string
}

export interface ChatRequest {
  messages: ChatMessage[]
  /** Native tools; only sent to providers with `supportsTools` (use the JSON protocol otherwise). */
  tools?: ToolSpec[]
  /** Force one JSON object as the answer (`response_format`, Ollama `format`, an instruction for Anthropic). */
  json?: boolean
  /**
   * The JSON protocol's tools (never sent as native tools). A driver that can constrain decoding
   * (`local`) builds a grammar from them so every reply is one valid `{"method": ...}` call.
   */
  protocolTools?: ToolSpec[]
  signal?: AbortSignal
  /** Overrides the provider's `maxOutputTokens` for this call. */
  maxOutputTokens?: number
}

/** One piece of a streamed answer. The last event is always `done` with the assembled result. */
export type StreamEvent =
  | { type: 'text'; text: string }
  /** A tool call begins: its id and name are known, its arguments follow as deltas. */
  | { type: 'tool-call'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; arguments: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'done'; result: ChatResult }

export interface LlmClient {
  /** The provider this client talks to (never its key). */
  readonly provider: PublicProvider
  /** One complete answer. */
  chat(request: ChatRequest): Promise<ChatResult>
  /** The answer as it arrives; ends with a `done` event. Breaking out of the loop cancels the request. */
  stream(request: ChatRequest): AsyncIterable<StreamEvent>
  /** The context window in tokens: configured, or read from the server (Ollama `/api/show`), or the default. */
  contextWindow(signal?: AbortSignal): Promise<number>
}

export type ProviderKind = 'openai-compatible' | 'ollama' | 'anthropic' | 'local'
export type CacheType = 'none' | 'prefix' | 'anthropic'
export type InteractionModeSetting = 'api' | 'cli'

/** A provider with every default applied and every override merged; what clients are built from. */
export interface PublicProvider {
  id: string
  name: string
  kind: ProviderKind
  baseUrl: string
  model: string
  apiKeyEnv: string | undefined
  contextWindow: number | undefined
  maxOutputTokens: number | undefined
  interactionMode: InteractionModeSetting | undefined
  cacheType: CacheType
  supportsTools: boolean
  supportsVision: boolean
  headers: Record<string, string>
  temperature: number | undefined
  /** The environment variable the API key came from (BUREAU_API_KEY or apiKeyEnv); absent: the settings store or none. */
  apiKeyFrom?: string | undefined
}

export interface ResolvedProvider extends PublicProvider {
  /** The key from the environment or the settings store; never logged, never sent to the renderer. */
  apiKey: string | undefined
}
