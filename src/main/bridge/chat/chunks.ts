import { randomBytes } from 'node:crypto'
import type { AgentStep } from '../../../shared/ipc'

export type FinishReason = 'stop' | 'length'

export interface CompletionUsage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
  prompt_tokens_details: { cached_tokens: number }
  completion_tokens_details: { reasoning_tokens: number }
}

export function usageOf(usage: {
  inputTokens: number
  outputTokens: number
  cachedInputTokens?: number
}): CompletionUsage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  }
}

/** A step as the `bureau_step`/`bureau_steps` extension shows it: the result stays in Bureau (it can be large). */
export function publicStep(step: AgentStep) {
  return {
    id: step.id,
    method: step.method,
    args: step.args,
    status: step.status,
    ...(step.error ? { error: step.error } : {}),
    ...(step.durationMs !== undefined ? { duration_ms: step.durationMs } : {}),
    ...(step.subagent ? { subagent: step.subagent } : {}),
    ...(step.approval ? { approval: step.approval } : {}),
  }
}

export function completionId(): string {
  return `chatcmpl-${randomBytes(12).toString('base64url')}`
}

/** Builds the stream's `chat.completion.chunk`s exactly as OpenAI sends them, plus Bureau's extension fields. */
export function chunkFactory(model: string, includeUsage: boolean) {
  const base = {
    id: completionId(),
    object: 'chat.completion.chunk' as const,
    created: Math.floor(Date.now() / 1000),
    model,
  }
  const usageNull = includeUsage ? { usage: null } : {}
  const choice = (delta: Record<string, unknown>, finishReason: FinishReason | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...usageNull,
  })
  return {
    role: () => choice({ role: 'assistant', content: '', refusal: null }),
    content: (text: string) => choice({ content: text }),
    step: (phase: 'started' | 'finished', step: AgentStep) => ({
      ...choice({}),
      bureau_step: { phase, ...publicStep(step) },
    }),
    notice: (message: string) => ({ ...choice({}), bureau_notice: message }),
    finish: (reason: FinishReason, status: string) => ({ ...choice({}, reason), bureau_status: status }),
    usage: (usage: CompletionUsage) => ({ ...base, choices: [], usage }),
  }
}
