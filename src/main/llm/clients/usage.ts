import type { Usage } from '../types'

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0
}

/**
 * OpenAI-style usage. Cache hits come as `prompt_tokens_details.cached_tokens` (OpenAI, Gemini, Z.ai)
 * or `prompt_cache_hit_tokens` (DeepSeek); both are part of `prompt_tokens`.
 */
export function usageFromOpenAi(raw: unknown): Usage {
  const usage = (raw ?? {}) as Record<string, unknown>
  const details = (usage.prompt_tokens_details ?? {}) as Record<string, unknown>
  return {
    inputTokens: count(usage.prompt_tokens),
    outputTokens: count(usage.completion_tokens),
    cachedInputTokens: count(details.cached_tokens) || count(usage.prompt_cache_hit_tokens),
    cacheWriteTokens: 0,
  }
}

/** Anthropic reports only the uncached rest as `input_tokens`; the total adds both cache counts. */
export function usageFromAnthropic(raw: unknown, previous?: Usage): Usage {
  const usage = (raw ?? {}) as Record<string, unknown>
  const read = count(usage.cache_read_input_tokens)
  const write = count(usage.cache_creation_input_tokens)
  const input = count(usage.input_tokens) + read + write
  return {
    inputTokens: input || (previous?.inputTokens ?? 0),
    outputTokens: count(usage.output_tokens) || (previous?.outputTokens ?? 0),
    cachedInputTokens: read || (previous?.cachedInputTokens ?? 0),
    cacheWriteTokens: write || (previous?.cacheWriteTokens ?? 0),
  }
}

/** Ollama counts prompt and generated tokens; it reports no cache statistics. */
export function usageFromOllama(raw: { prompt_eval_count?: unknown; eval_count?: unknown }): Usage {
  return {
    inputTokens: count(raw.prompt_eval_count),
    outputTokens: count(raw.eval_count),
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
  }
}
