import type OpenAI from 'openai'
import type { ChatRequest, FinishReason, ResolvedProvider } from '../types'
import type { ResolvedClientOptions } from './clientOptions'
import { DEFAULT_CONTEXT_WINDOW } from './contextWindow'
import type { DriverEvent, ProviderDriver } from './driver'
import { mentionsJson, toOpenAiMessages, toOpenAiTools } from './openaiMessages'
import { sdkClientOptions } from './sdkClientOptions'
import { usageFromOpenAi } from './usage'

const finishReasons: Record<string, FinishReason> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
}

interface ChunkToolCall {
  index?: number
  id?: string
  function?: { name?: string; arguments?: string }
}

/** The request body, exactly as sent (also used by tests to check prefix stability). */
export function openAiRequestBody(provider: ResolvedProvider, request: ChatRequest) {
  const messages = toOpenAiMessages(request.messages)
  if (request.json && !mentionsJson(request.messages)) {
    messages.push({ role: 'system', content: 'Answer with one JSON object.' })
  }
  const maxTokens = request.maxOutputTokens ?? provider.maxOutputTokens
  return {
    model: provider.model,
    messages,
    stream: true as const,
    stream_options: { include_usage: true },
    ...(request.tools?.length && provider.supportsTools && { tools: toOpenAiTools(request.tools) }),
    ...(request.json && { response_format: { type: 'json_object' as const } }),
    ...(maxTokens !== undefined && { max_tokens: maxTokens }),
    ...(provider.temperature !== undefined && { temperature: provider.temperature }),
  }
}

/**
 * Maps the provider's tool-call deltas to our calls. Most servers send `index` per call; some send
 * every call whole at index 0 with its own id, so a new id with a name starts a new call.
 */
class ToolCallTracker {
  private readonly current = new Map<number, { ours: number; id: string }>()
  private next = 0

  accept(call: ChunkToolCall): DriverEvent[] {
    const events: DriverEvent[] = []
    const theirs = call.index ?? (call.id ? this.next : Math.max(0, this.next - 1))
    let entry = this.current.get(theirs)
    const isNew = !entry || (call.id !== undefined && call.id !== entry.id && call.function?.name)
    if (isNew) {
      const ours = this.next++
      entry = { ours, id: call.id ?? `call_${ours}` }
      this.current.set(theirs, entry)
      events.push({ type: 'tool-call', index: entry.ours, id: entry.id, name: call.function?.name ?? '' })
    }
    const args = call.function?.arguments
    if (entry && args) events.push({ type: 'tool-call-delta', index: entry.ours, arguments: args })
    return events
  }
}

async function* readChunks(stream: AsyncIterable<OpenAI.ChatCompletionChunk>): AsyncGenerator<DriverEvent> {
  const calls = new ToolCallTracker()
  let finish: FinishReason | undefined
  let model: string | undefined
  for await (const chunk of stream) {
    model = chunk.model || model
    if (chunk.usage) yield { type: 'usage', usage: usageFromOpenAi(chunk.usage) }
    const choice = chunk.choices?.[0]
    if (!choice) continue
    const delta = choice.delta ?? {}
    if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text', text: delta.content }
    for (const call of (delta.tool_calls ?? []) as ChunkToolCall[]) yield* calls.accept(call)
    if (choice.finish_reason) finish = finishReasons[choice.finish_reason] ?? 'other'
  }
  if (finish) yield { type: 'finish', reason: finish, model }
}

/** OpenAI Chat Completions and every server that speaks it (DeepSeek, Z.ai, Gemini, LM Studio...). */
export function createOpenAiDriver(
  provider: ResolvedProvider,
  options: ResolvedClientOptions,
): ProviderDriver {
  // The SDK is loaded on first use so the CLI and the host start fast.
  let client: Promise<OpenAI> | undefined
  const sdk = () =>
    (client ??= import('openai').then(
      ({ default: OpenAIClient }) =>
        new OpenAIClient({
          ...sdkClientOptions(provider, options),
          baseURL: provider.baseUrl,
          organization: null,
          project: null,
        }),
    ))
  return {
    async open(request, signal) {
      const stream = await (await sdk()).chat.completions.create(openAiRequestBody(provider, request), {
        signal,
      })
      return readChunks(stream)
    },
    contextWindow: async () => provider.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
  }
}
