import type { ChatResponse, Ollama } from 'ollama'
import { IncompleteReplyError, MalformedReplyError, ProviderHttpError } from '../errors/failureInfo'
import type { ChatRequest, ResolvedProvider } from '../types'
import type { ResolvedClientOptions } from './clientOptions'
import { contextLengthFromShow, DEFAULT_CONTEXT_WINDOW, OLLAMA_AUTO_CONTEXT_CAP } from './contextWindow'
import type { DriverEvent, ProviderDriver } from './driver'
import { toOllamaMessages, toOllamaTools } from './ollamaMessages'
import { usageFromOllama } from './usage'

/** Ollama takes the server root; tolerate a base URL copied with `/api` or `/v1`. */
export function ollamaHost(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/(api|v1)$/, '')
}

/** The request body, exactly as sent. `num_ctx` is always set: Ollama's own default is far smaller. */
export function ollamaRequestBody(provider: ResolvedProvider, request: ChatRequest, numCtx: number) {
  const maxTokens = request.maxOutputTokens ?? provider.maxOutputTokens
  return {
    model: provider.model,
    messages: toOllamaMessages(request.messages),
    stream: true as const,
    ...(request.tools?.length && provider.supportsTools && { tools: toOllamaTools(request.tools) }),
    ...(request.json && { format: 'json' }),
    options: {
      num_ctx: numCtx,
      ...(maxTokens !== undefined && { num_predict: maxTokens }),
      ...(provider.temperature !== undefined && { temperature: provider.temperature }),
    },
  }
}

function callArguments(value: unknown): string {
  // A model's broken arguments arrive as raw text; pass them on for the tools pipeline to repair.
  return typeof value === 'string' ? value : JSON.stringify(value ?? {})
}

async function* readParts(parts: AsyncIterable<ChatResponse>): AsyncGenerator<DriverEvent> {
  let calls = 0
  try {
    for await (const part of parts) {
      const message = part.message
      if (message?.content) yield { type: 'text', text: message.content }
      for (const call of message?.tool_calls ?? []) {
        const index = calls++
        yield { type: 'tool-call', index, id: `call_${index}`, name: call.function.name }
        yield { type: 'tool-call-delta', index, arguments: callArguments(call.function.arguments) }
      }
      if (part.done) {
        yield { type: 'usage', usage: usageFromOllama(part) }
        const reason = part.done_reason === 'length' ? 'length' : calls > 0 ? 'tool_calls' : 'stop'
        yield { type: 'finish', reason, model: part.model }
        return
      }
    }
  } catch (error) {
    if (error instanceof Error && /did not receive done/i.test(error.message))
      throw new IncompleteReplyError()
    throw error
  }
  throw new IncompleteReplyError()
}

/**
 * A fetch that carries the attempt's abort signal (the ollama library takes none per request) and
 * remembers the last response's headers (its errors carry only the status; Retry-After is needed).
 */
function signalledFetch(
  base: typeof fetch,
  signal: AbortSignal | undefined,
  seen: { headers?: Headers },
): typeof fetch {
  return async (input, init) => {
    const response = await base(input, { ...init, signal: signal ?? init?.signal ?? null })
    seen.headers = response.headers
    return response
  }
}

/** The ollama library's ResponseError, re-thrown with the response headers. */
function withHeaders(error: unknown, seen: { headers?: Headers }): unknown {
  const status = (error as { status_code?: unknown } | null)?.status_code
  if (typeof status !== 'number') return error
  const message = (error as { error?: unknown }).error
  return new ProviderHttpError(status, seen.headers, typeof message === 'string' ? message : `HTTP ${status}`)
}

/** Ollama's native API (`/api/chat`, `/api/show`). */
export function createOllamaDriver(
  provider: ResolvedProvider,
  options: ResolvedClientOptions,
): ProviderDriver {
  const host = ollamaHost(provider.baseUrl)
  // The library is loaded on first use so the CLI and the host start fast.
  const client = async (signal?: AbortSignal, seen: { headers?: Headers } = {}): Promise<Ollama> => {
    const { Ollama: OllamaClient } = await import('ollama')
    return new OllamaClient({
      host,
      headers: provider.headers,
      fetch: signalledFetch(options.fetch, signal, seen),
    })
  }
  let detected: number | undefined

  async function contextWindow(signal?: AbortSignal): Promise<number> {
    if (provider.contextWindow) return provider.contextWindow
    if (detected) return detected
    try {
      const shown = await (await client(signal)).show({ model: provider.model })
      const length = contextLengthFromShow(shown.model_info)
      if (length) detected = Math.min(length, OLLAMA_AUTO_CONTEXT_CAP)
    } catch {
      // Unknown model or server down: the chat request reports that properly.
    }
    return detected ?? DEFAULT_CONTEXT_WINDOW
  }

  return {
    async open(request, signal) {
      const numCtx = await contextWindow(signal)
      const body = ollamaRequestBody(provider, request, numCtx)
      const seen: { headers?: Headers } = {}
      const parts = await (await client(signal, seen)).chat(body).catch((error: unknown) => {
        throw withHeaders(error, seen)
      })
      if (!parts || typeof (parts as AsyncIterable<ChatResponse>)[Symbol.asyncIterator] !== 'function')
        throw new MalformedReplyError('Ollama did not stream')
      return readParts(parts)
    },
    contextWindow,
  }
}
