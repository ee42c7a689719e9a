import { arrayField, type ChatProtocol, lastUserText } from './chatProtocol'
import { ollamaErrorBody } from './errorBodies'
import type { ReplyPlan } from './replyPlan'
import type { Frame } from './streamFrames'

/** Ollama's native chat (`POST /api/chat`): NDJSON stream (the default) or one JSON object. */
export const ollamaChat: ChatProtocol = {
  protocol: 'ollama',
  streamContentType: 'application/x-ndjson',
  wantsStream: (body) => body.stream !== false,
  messages: (body) => arrayField(body, 'messages'),
  tools: (body) => arrayField(body, 'tools'),
  lastUserText: (body) => lastUserText(arrayField(body, 'messages')),
  errorBody: ollamaErrorBody,

  completion: (plan) => ({ ...line(plan, plan.text, true), ...finalFields(plan) }),

  streamFrames(plan) {
    const frames: Frame[] = plan.textChunks.map((text) => ({
      kind: 'chunk',
      data: ndjson(line(plan, text, false)),
    }))
    if (plan.toolCalls.length > 0) {
      // Ollama never streams arguments piecewise: all calls arrive whole in one line.
      frames.push({ kind: 'chunk', data: ndjson(line(plan, '', true)) })
    }
    frames.push({ kind: 'end', data: ndjson({ ...line(plan, '', false), ...finalFields(plan) }) })
    return frames
  },

  streamErrorFrame: (_plan, error) => ndjson({ error: error.message }),

  brokenFrame: (plan) =>
    `{"model":"${plan.model}","created_at":"${new Date().toISOString()}","message":{"role":"assis\n`,
}

function ndjson(value: unknown): string {
  return `${JSON.stringify(value)}\n`
}

function line(plan: ReplyPlan, content: string, withToolCalls: boolean) {
  return {
    model: plan.model,
    created_at: new Date().toISOString(),
    message: {
      role: 'assistant',
      content,
      ...(withToolCalls &&
        plan.toolCalls.length > 0 && {
          tool_calls: plan.toolCalls.map((call) => ({
            // Broken scripted arguments have no object form; hand the raw text over so clients see it.
            function: { name: call.name, arguments: call.argumentsObject ?? call.argumentsText },
          })),
        }),
    },
    done: false,
  }
}

function finalFields(plan: ReplyPlan) {
  return {
    done: true,
    done_reason:
      plan.finishReason === 'length'
        ? 'length'
        : plan.finishReason === 'tool_calls'
          ? 'stop'
          : plan.finishReason,
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: plan.usage.promptTokens,
    prompt_eval_duration: 200_000,
    eval_count: plan.usage.completionTokens,
    eval_duration: 700_000,
  }
}
