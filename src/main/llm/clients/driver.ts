import type { ChatRequest, FinishReason, StreamEvent, Usage } from '../types'

/** What a protocol driver yields: stream events without `done`, plus the finish marker. */
export type DriverEvent =
  | Exclude<StreamEvent, { type: 'done' }>
  | { type: 'finish'; reason: FinishReason; model?: string | undefined }

/**
 * One protocol (OpenAI-compatible, Ollama, Anthropic). `open` sends the request and resolves once the
 * server answered with a success status (it throws for HTTP errors, so they can be retried); the
 * iterable then yields the answer. Aborting `signal` must stop the HTTP request.
 */
export interface ProviderDriver {
  open(request: ChatRequest, signal: AbortSignal): Promise<AsyncIterable<DriverEvent>>
  contextWindow(signal?: AbortSignal): Promise<number>
}

export const ZERO_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
}
