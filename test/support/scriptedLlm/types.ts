/** Public types of the scripted LLM server. See README.md next to this file. */

/** Timing of a reply. `chunkDelayMs` and `tokensPerSecond` are alternatives (one chunk = one token). */
export interface Pacing {
  /** Wait this long before the first byte (status line and headers). */
  delayMs?: number
  /** Wait this long between two streamed chunks (content or tool-argument fragments). */
  chunkDelayMs?: number
  /** Stream at this many chunks per second (same as `chunkDelayMs: 1000 / tokensPerSecond`). */
  tokensPerSecond?: number
}

export interface UsageOverride {
  /** Total prompt tokens (default: request body length / 4). */
  promptTokens?: number
  /** Default: number of streamed chunks. */
  completionTokens?: number
  /**
   * Prompt tokens served from the cache. OpenAI: `prompt_tokens_details.cached_tokens` (only present when set);
   * Anthropic: `cache_read_input_tokens`; DeepSeek style: `prompt_cache_hit_tokens`.
   */
  cachedTokens?: number
  /** Anthropic `cache_creation_input_tokens`. */
  cacheCreationTokens?: number
  /** `'deepseek'` reports cache hits as `prompt_cache_hit_tokens`/`prompt_cache_miss_tokens` only. */
  style?: 'openai' | 'deepseek'
}

/** Options shared by text and tool-call turns. */
export interface ReplyOptions extends Pacing {
  usage?: UsageOverride
  /** OpenAI vocabulary (`stop`, `tool_calls`, `length`, `content_filter`); mapped for Anthropic and Ollama. */
  finishReason?: string
  /** Model name reported in the reply (default: the model the request asked for). */
  model?: string
  /** Stream this many chunks, then stop sending and hold the connection until the client gives up. */
  stallAfterChunks?: number
  /** After the chunks, send an in-band stream error and end without a finish chunk (non-stream: HTTP 500). */
  streamError?: { message?: string; type?: string }
}

export interface TextTurn extends ReplyOptions {
  text: string
  /** Explicit stream chunks; must join to `text`. Default: one chunk per word (whitespace kept). */
  chunks?: string[]
}

export interface ScriptedToolCall {
  /** Default: `call_<n>` (OpenAI), `toolu_<n>` (Anthropic). */
  id?: string
  name: string
  /** An object is sent as JSON; a string is sent verbatim, so it may be deliberately broken JSON. */
  arguments: string | Record<string, unknown>
  /** Explicit stream fragments of the arguments string; must join to it. Default: 8-character pieces. */
  argumentChunks?: string[]
}

export interface ToolCallsTurn extends ReplyOptions {
  toolCalls: ScriptedToolCall[]
  /** Text streamed before the tool calls. */
  text?: string
  chunks?: string[]
}

export interface ScriptedError {
  status: number
  /** Default: a realistic message for the status. */
  message?: string
  /** Error type in the body (default per status and protocol, e.g. `rate_limit_error`). */
  type?: string
  /** OpenAI `error.code` (default per status, e.g. `invalid_api_key`, `model_not_found`). */
  code?: string | null
  /** Sent as the `Retry-After` header. */
  retryAfterSeconds?: number
  headers?: Record<string, string>
  /** Replaces the whole body: an object is sent as JSON, a string verbatim (text/plain unless headers say). */
  body?: unknown
}

export interface ErrorTurn {
  error: ScriptedError
  delayMs?: number
}

export interface MalformedTurn extends Pacing {
  /**
   * `'json'`: the body (non-stream) or the first stream event is invalid JSON.
   * `'sse'`: the stream starts fine, then an event is cut off mid-JSON and the connection ends
   * without finish chunk or `[DONE]` (for non-stream requests it behaves like `'json'`).
   */
  malformed: 'json' | 'sse'
  /** Text of the reply that gets broken (default: 'This reply will break'). */
  text?: string
}

export interface HangTurn {
  /** Never answer (not even headers) until the client disconnects; the request is then recorded `aborted`. */
  hang: true
  delayMs?: number
}

/** One scripted model reply. The same turn answers OpenAI, Anthropic and Ollama requests. */
export type Turn = TextTurn | ToolCallsTurn | ErrorTurn | MalformedTurn | HangTurn

export type Protocol = 'openai' | 'anthropic' | 'ollama'

/** What a responder sees of a chat request, whichever protocol sent it. */
export interface ChatRequestInfo {
  protocol: Protocol
  model: string
  stream: boolean
  /** The request's messages as sent (protocol shape). */
  messages: unknown[]
  /** The request's tools as sent (protocol shape), `[]` when none. */
  tools: unknown[]
  /** Text of the last user message (string content or joined text parts), '' when none. */
  lastUserText: string
  body: Record<string, unknown>
  request: RecordedRequest
}

/** Returns the turn to play, or undefined to fall through to the loud "script ran out" error. */
export type Responder<TInfo, TTurn> = (info: TInfo) => TTurn | undefined | Promise<TTurn | undefined>

export type ChatResponder = Responder<ChatRequestInfo, Turn>

export interface SpeechReply {
  delayMs?: number
  /** Default: 60 ms per input character, between 300 ms and 10 s. */
  durationMs?: number
  /** Sine frequency of the WAV/PCM audio (default 440; 0 = silence). */
  frequencyHz?: number
  error?: ScriptedError
  hang?: true
}

export interface SpeechRequestInfo {
  input: string
  voice: string
  model: string
  /** `response_format` asked for (default `wav`). */
  format: string
  body: Record<string, unknown>
  request: RecordedRequest
}

export interface TranscriptionReply {
  text?: string
  language?: string
  delayMs?: number
  error?: ScriptedError
  hang?: true
}

export interface TranscriptionRequestInfo {
  model: string
  fields: Record<string, string>
  upload: RecordedUpload | undefined
  request: RecordedRequest
}

export type Endpoint =
  | 'openai.models'
  | 'openai.chat'
  | 'anthropic.messages'
  | 'ollama.chat'
  | 'ollama.tags'
  | 'ollama.show'
  | 'ollama.version'
  | 'audio.speech'
  | 'audio.transcriptions'
  | 'openai.embeddings'
  | 'ollama.embed'
  | 'options'
  | 'unknown'

export interface RecordedUpload {
  field: string
  fileName: string
  contentType: string
  size: number
}

/** One request as the server saw it. The object is updated live (status, finished, aborted). */
export interface RecordedRequest {
  /** 0-based arrival order. */
  index: number
  method: string
  /** Path without the query string. */
  path: string
  query: Record<string, string>
  /** Lower-case header names. */
  headers: Record<string, string>
  /** Parsed JSON body; multipart fields; the raw text when it is not JSON; undefined when empty. */
  body: unknown
  /** The body as UTF-8 text ('' for multipart uploads). */
  rawBody: string
  upload?: RecordedUpload
  endpoint: Endpoint
  /** Date.now() when the request arrived. */
  time: number
  /** The scripted turn/reply that answered it (undefined for fixed endpoints). */
  turn?: unknown
  /** True when no turn was queued and no responder answered. */
  outOfScript: boolean
  /** HTTP status sent (undefined until headers are sent). */
  status?: number
  /** The response was sent completely. */
  finished: boolean
  /** The client disconnected before the response was complete. */
  aborted: boolean
}

export interface ModelSpec {
  id: string
  /** Ollama `/api/show` `<architecture>.context_length` (default 32768). */
  contextLength?: number
  /** Ollama architecture / family (default `llama`). */
  architecture?: string
  ownedBy?: string
  /** Ollama `/api/show` capabilities (default `['completion', 'tools']`). */
  capabilities?: string[]
}

export interface ScriptedLlmOptions {
  /** Models listed by `/v1/models` and `/api/tags` (default: one model `scripted-model`). */
  models?: Array<string | ModelSpec>
  /** Turns queued from the start. */
  turns?: Turn[]
  responder?: ChatResponder
  /** Default 0 (a free port). */
  port?: number
}

export interface WaitOptions {
  /** Default 5000. */
  timeoutMs?: number
}

/** A queue of scripted replies plus an optional responder used once the queue is empty. */
export interface ReplyScript<TTurn, TInfo> {
  push(...turns: TTurn[]): void
  setResponder(responder: Responder<TInfo, TTurn> | undefined): void
  /** Number of queued replies not yet used. */
  readonly pending: number
}

export interface ScriptedLlm {
  /** `http://127.0.0.1:PORT` (Ollama base URL). */
  readonly url: string
  /** `url + '/v1'` (OpenAI and Anthropic base URL). */
  readonly baseUrl: string
  readonly port: number
  /** Queue chat turns, played in order by chat requests of any protocol. */
  push(...turns: Turn[]): void
  /** Answers chat requests once the queue is empty (undefined removes it). */
  setResponder(responder: ChatResponder | undefined): void
  /** Number of queued chat turns not yet used. */
  readonly pending: number
  /** `/v1/audio/speech` script. Without replies it answers with generated audio at once. */
  readonly speech: ReplyScript<SpeechReply, SpeechRequestInfo>
  /** `/v1/audio/transcriptions` script. Without replies it fails loudly like the chat script. */
  readonly transcriptions: ReplyScript<TranscriptionReply, TranscriptionRequestInfo>
  /** `/v1/embeddings` and `/api/embed`: deterministic bag-of-words vectors; dimension and failure settable. */
  readonly embeddings: import('./embeddings').EmbeddingsScript
  /** Every request received, in arrival order (live objects). */
  readonly requests: readonly RecordedRequest[]
  /** Resolves once at least `count` requests arrived (rejects after the timeout). */
  waitForRequests(count: number, options?: WaitOptions): Promise<RecordedRequest[]>
  /** Resolves once `predicate` holds; rechecked on every request event (arrival, headers, end, abort). */
  waitUntil(predicate: () => boolean, options?: WaitOptions): Promise<void>
  /** Clears queues, responders and recorded requests. */
  reset(): void
  /** Closes the server, cutting any open connection. */
  close(): Promise<void>
}
