/** Assumed when neither the provider entry nor the server says how large the context window is. */
export const DEFAULT_CONTEXT_WINDOW = 32_768

/**
 * Largest context Bureau asks Ollama to allocate when the window comes from `/api/show`: the model's
 * trained maximum (often 128K+) would not fit a laptop's memory. Set `contextWindow` to go higher.
 */
export const OLLAMA_AUTO_CONTEXT_CAP = 32_768

/** `<architecture>.context_length` from Ollama's `/api/show` `model_info`. */
export function contextLengthFromShow(modelInfo: unknown): number | undefined {
  if (!modelInfo || typeof modelInfo !== 'object') return undefined
  for (const [key, value] of Object.entries(modelInfo as Record<string, unknown>)) {
    if (key.endsWith('.context_length') && typeof value === 'number' && value > 0) return value
  }
  return undefined
}
