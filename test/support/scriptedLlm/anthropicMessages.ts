import { arrayField, type ChatProtocol, lastUserText } from './chatProtocol'
import { anthropicErrorBody } from './errorBodies'
import type { PlannedToolCall, PlannedUsage, ReplyPlan } from './replyPlan'
import { type Frame, sseEvent } from './streamFrames'

const stopReasons: Record<string, string> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  length: 'max_tokens',
  content_filter: 'refusal',
}

/** Anthropic Messages (`POST /v1/messages`), stream and non-stream. */
export const anthropicMessages: ChatProtocol = {
  protocol: 'anthropic',
  streamContentType: 'text/event-stream; charset=utf-8',
  wantsStream: (body) => body.stream === true,
  messages: (body) => arrayField(body, 'messages'),
  tools: (body) => arrayField(body, 'tools'),
  lastUserText: (body) => lastUserText(arrayField(body, 'messages')),
  errorBody: anthropicErrorBody,

  completion(plan) {
    return {
      ...messageHead(plan),
      content: [
        ...(plan.text !== '' ? [{ type: 'text', text: plan.text }] : []),
        ...plan.toolCalls.map((call) => ({
          type: 'tool_use',
          id: toolUseId(plan, call),
          name: call.name,
          // Broken scripted arguments have no object form; hand the raw text over so clients see it.
          input: call.argumentsObject ?? call.argumentsText,
        })),
      ],
      stop_reason: stopReason(plan),
      usage: anthropicUsage(plan.usage, plan.usage.completionTokens),
    }
  },

  streamFrames(plan) {
    const frames: Frame[] = [
      {
        kind: 'meta',
        data: sseEvent('message_start', {
          type: 'message_start',
          message: {
            ...messageHead(plan),
            content: [],
            stop_reason: null,
            usage: anthropicUsage(plan.usage, 1),
          },
        }),
      },
      { kind: 'meta', data: sseEvent('ping', { type: 'ping' }) },
    ]
    let index = 0
    if (plan.text !== '') {
      frames.push(blockStart(index, { type: 'text', text: '' }))
      for (const text of plan.textChunks) frames.push(blockDelta(index, { type: 'text_delta', text }))
      frames.push(blockStop(index++))
    }
    for (const call of plan.toolCalls) {
      frames.push(
        blockStart(index, { type: 'tool_use', id: toolUseId(plan, call), name: call.name, input: {} }),
      )
      for (const fragment of call.fragments) {
        frames.push(blockDelta(index, { type: 'input_json_delta', partial_json: fragment }))
      }
      frames.push(blockStop(index++))
    }
    frames.push({
      kind: 'end',
      data: sseEvent('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: stopReason(plan), stop_sequence: null },
        usage: { output_tokens: plan.usage.completionTokens },
      }),
    })
    frames.push({ kind: 'end', data: sseEvent('message_stop', { type: 'message_stop' }) })
    return frames
  },

  streamErrorFrame: (_plan, error) =>
    sseEvent('error', {
      type: 'error',
      error: { type: error.type === 'server_error' ? 'api_error' : error.type, message: error.message },
    }),

  brokenFrame: (plan) =>
    `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"trunc${plan.seq}\n\n`,
}

function messageHead(plan: ReplyPlan) {
  return {
    id: `msg_scripted${plan.seq}`,
    type: 'message',
    role: 'assistant',
    model: plan.model,
    stop_sequence: null,
  }
}

function stopReason(plan: ReplyPlan): string {
  return stopReasons[plan.finishReason] ?? plan.finishReason
}

function toolUseId(plan: ReplyPlan, call: PlannedToolCall): string {
  return call.id ?? `toolu_scripted${plan.seq}_${call.index}`
}

/** Anthropic counts cached prompt tokens apart: `input_tokens` is only the uncached remainder. */
function anthropicUsage(usage: PlannedUsage, outputTokens: number) {
  const cacheRead = usage.cachedTokens ?? 0
  const cacheCreation = usage.cacheCreationTokens ?? 0
  return {
    input_tokens: Math.max(0, usage.promptTokens - cacheRead - cacheCreation),
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: cacheRead,
    output_tokens: outputTokens,
  }
}

function blockStart(index: number, block: Record<string, unknown>): Frame {
  return {
    kind: 'meta',
    data: sseEvent('content_block_start', { type: 'content_block_start', index, content_block: block }),
  }
}

function blockDelta(index: number, delta: Record<string, unknown>): Frame {
  return {
    kind: 'chunk',
    data: sseEvent('content_block_delta', { type: 'content_block_delta', index, delta }),
  }
}

function blockStop(index: number): Frame {
  return { kind: 'meta', data: sseEvent('content_block_stop', { type: 'content_block_stop', index }) }
}
