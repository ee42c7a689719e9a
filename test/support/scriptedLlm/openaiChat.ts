import { arrayField, type ChatProtocol, lastUserText } from './chatProtocol'
import { openaiErrorBody } from './errorBodies'
import type { PlannedToolCall, PlannedUsage, ReplyPlan } from './replyPlan'
import { type Frame, sseData } from './streamFrames'

/** OpenAI Chat Completions (`POST /v1/chat/completions`), stream and non-stream. */
export const openaiChat: ChatProtocol = {
  protocol: 'openai',
  streamContentType: 'text/event-stream; charset=utf-8',
  wantsStream: (body) => body.stream === true,
  messages: (body) => arrayField(body, 'messages'),
  tools: (body) => arrayField(body, 'tools'),
  lastUserText: (body) => lastUserText(arrayField(body, 'messages')),
  errorBody: openaiErrorBody,

  completion(plan) {
    return {
      id: completionId(plan),
      object: 'chat.completion',
      created: plan.created,
      model: plan.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: plan.text === '' && plan.toolCalls.length > 0 ? null : plan.text,
            refusal: null,
            ...(plan.toolCalls.length > 0 && {
              tool_calls: plan.toolCalls.map((call) => ({
                id: toolCallId(plan, call),
                type: 'function',
                function: { name: call.name, arguments: call.argumentsText },
              })),
            }),
          },
          logprobs: null,
          finish_reason: plan.finishReason,
        },
      ],
      usage: openaiUsage(plan.usage),
    }
  },

  streamFrames(plan, body) {
    const includeUsage =
      (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      sseData({
        id: completionId(plan),
        object: 'chat.completion.chunk',
        created: plan.created,
        model: plan.model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...(includeUsage && { usage: null }),
      })
    const hasText = plan.textChunks.length > 0
    const frames: Frame[] = [
      { kind: 'meta', data: chunk({ role: 'assistant', content: hasText ? '' : null, refusal: null }) },
      ...plan.textChunks.map((text): Frame => ({ kind: 'chunk', data: chunk({ content: text }) })),
    ]
    for (const call of plan.toolCalls) {
      const header = { index: call.index, id: toolCallId(plan, call), type: 'function' }
      frames.push({
        kind: 'chunk',
        data: chunk({ tool_calls: [{ ...header, function: { name: call.name, arguments: '' } }] }),
      })
      for (const fragment of call.fragments) {
        frames.push({
          kind: 'chunk',
          data: chunk({ tool_calls: [{ index: call.index, function: { arguments: fragment } }] }),
        })
      }
    }
    frames.push({ kind: 'end', data: chunk({}, plan.finishReason) })
    if (includeUsage) {
      const usageChunk = {
        id: completionId(plan),
        object: 'chat.completion.chunk',
        created: plan.created,
        model: plan.model,
        choices: [],
        usage: openaiUsage(plan.usage),
      }
      frames.push({ kind: 'end', data: sseData(usageChunk) })
    }
    frames.push({ kind: 'end', data: sseData('[DONE]') })
    return frames
  },

  streamErrorFrame: (_plan, error) =>
    sseData({ error: { message: error.message, type: error.type, param: null, code: null } }),

  brokenFrame: (plan) =>
    `data: {"id":"${completionId(plan)}","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"trunc\n\n`,
}

function completionId(plan: ReplyPlan): string {
  return `chatcmpl-scripted${plan.seq}`
}

function toolCallId(plan: ReplyPlan, call: PlannedToolCall): string {
  return call.id ?? `call_scripted${plan.seq}_${call.index}`
}

export function openaiUsage(usage: PlannedUsage): Record<string, unknown> {
  const cached = usage.cachedTokens
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    ...(cached !== undefined &&
      usage.style === 'openai' && { prompt_tokens_details: { cached_tokens: cached } }),
    ...(usage.style === 'deepseek' && {
      prompt_cache_hit_tokens: cached ?? 0,
      prompt_cache_miss_tokens: usage.promptTokens - (cached ?? 0),
    }),
  }
}
