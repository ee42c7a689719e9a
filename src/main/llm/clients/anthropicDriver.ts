import type Anthropic from '@anthropic-ai/sdk'
import type { ChatRequest, FinishReason, ResolvedProvider, Usage } from '../types'
import {
  toAnthropicMessages,
  toAnthropicSystem,
  toAnthropicTools,
  withJsonInstruction,
} from './anthropicMessages'
import type { ResolvedClientOptions } from './clientOptions'
import { DEFAULT_CONTEXT_WINDOW } from './contextWindow'
import type { DriverEvent, ProviderDriver } from './driver'
import { ZERO_USAGE } from './driver'
import { sdkClientOptions } from './sdkClientOptions'
import { usageFromAnthropic } from './usage'

/** Anthropic requires `max_tokens`; used when the provider sets no `maxOutputTokens`. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096

const stopReasons: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'content_filter',
}

/** The SDK appends `/v1/messages` itself; tolerate a base URL that already ends in `/v1`. */
export function anthropicBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')
}

/** The request body, exactly as sent (tests count its cache breakpoints). */
export function anthropicRequestBody(provider: ResolvedProvider, request: ChatRequest) {
  const system = toAnthropicSystem(request.messages, provider.cacheType)
  const messages = toAnthropicMessages(request.messages)
  return {
    model: provider.model,
    max_tokens: request.maxOutputTokens ?? provider.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    ...(system.length > 0 && { system }),
    messages: request.json ? withJsonInstruction(messages) : messages,
    ...(request.tools?.length &&
      provider.supportsTools && { tools: toAnthropicTools(request.tools, provider.cacheType) }),
    ...(provider.temperature !== undefined && { temperature: Math.min(1, provider.temperature) }),
    stream: true as const,
  }
}

interface RawEvent {
  type: string
  index?: number
  message?: { model?: string; usage?: unknown }
  content_block?: { type?: string; id?: string; name?: string }
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null }
  usage?: unknown
}

async function* readEvents(events: AsyncIterable<RawEvent>): AsyncGenerator<DriverEvent> {
  const toolIndex = new Map<number, number>()
  let usage: Usage = ZERO_USAGE
  let reason: FinishReason = 'stop'
  let model: string | undefined
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        model = event.message?.model
        usage = usageFromAnthropic(event.message?.usage, usage)
        break
      case 'content_block_start':
        if (event.content_block?.type === 'tool_use' && event.index !== undefined) {
          const index = toolIndex.size
          toolIndex.set(event.index, index)
          yield {
            type: 'tool-call',
            index,
            id: event.content_block.id ?? `toolu_${index}`,
            name: event.content_block.name ?? '',
          }
        }
        break
      case 'content_block_delta':
        if (event.delta?.type === 'text_delta' && event.delta.text)
          yield { type: 'text', text: event.delta.text }
        else if (event.delta?.type === 'input_json_delta' && event.delta.partial_json) {
          const index = toolIndex.get(event.index ?? -1)
          if (index !== undefined)
            yield { type: 'tool-call-delta', index, arguments: event.delta.partial_json }
        }
        break
      case 'message_delta':
        if (event.delta?.stop_reason) reason = stopReasons[event.delta.stop_reason] ?? 'other'
        usage = usageFromAnthropic(event.usage, usage)
        break
      case 'message_stop':
        yield { type: 'usage', usage }
        yield { type: 'finish', reason, model }
        return
    }
  }
}

/** Anthropic Messages API. */
export function createAnthropicDriver(
  provider: ResolvedProvider,
  options: ResolvedClientOptions,
): ProviderDriver {
  // The SDK is loaded on first use so the CLI and the host start fast.
  let client: Promise<Anthropic> | undefined
  const sdk = () =>
    (client ??= import('@anthropic-ai/sdk').then(
      ({ default: AnthropicClient }) =>
        new AnthropicClient({
          ...sdkClientOptions(provider, options),
          authToken: null,
          baseURL: anthropicBaseUrl(provider.baseUrl),
        }),
    ))
  return {
    async open(request, signal) {
      const body = anthropicRequestBody(provider, request) as Anthropic.MessageCreateParamsStreaming
      const stream = await (await sdk()).messages.create(body, { signal })
      return readEvents(stream as AsyncIterable<RawEvent>)
    },
    contextWindow: async () => provider.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
  }
}
