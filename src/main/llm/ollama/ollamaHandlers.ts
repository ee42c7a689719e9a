import type { OllamaStatusSummary } from '../../../shared/ipc/routes/models'
import { probeOllama } from './ollamaStatus'

/** The `ollama.status` route: is Ollama running at the configured URL, and with which models. */
export function ollamaHandlers(options: { url: () => string; fetch?: typeof fetch }) {
  return {
    'ollama.status': async (
      // biome-ignore lint/suspicious/noConfusingVoidType: the router's type for a route without input
      _input: void,
      context: { signal?: AbortSignal },
    ): Promise<OllamaStatusSummary> => {
      const status = await probeOllama(options.url(), {
        ...(options.fetch && { fetch: options.fetch }),
        ...(context.signal && { signal: context.signal }),
      })
      return status.running
        ? { running: true, url: status.url, models: status.models, error: null, hint: null }
        : { running: false, url: status.url, models: [], error: status.error, hint: status.hint }
    },
  }
}
