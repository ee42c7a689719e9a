import type { OllamaPullProgressEvent, OllamaStatusSummary } from '../../../shared/ipc/routes/models'
import { probeOllama, pullOllamaModel } from './ollamaStatus'

export interface OllamaHandlerOptions {
  url: () => string
  fetch?: typeof fetch
  /** Where `ollama.pull` reports its progress (the `ollama.progress` event). */
  emit?: (progress: OllamaPullProgressEvent) => void
}

/** `ollama.status` (is Ollama running, with which models) and `ollama.pull` (a model through Ollama). */
export function ollamaHandlers(options: OllamaHandlerOptions) {
  const pulls = new Set<string>()
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
    // A pull takes minutes: it runs on after the answer, its progress arrives as events.
    'ollama.pull': ({ model }: { model: string }) => {
      const emit = (progress: Omit<OllamaPullProgressEvent, 'model'>) =>
        options.emit?.({ model, ...progress })
      if (!pulls.has(model)) {
        pulls.add(model)
        pullOllamaModel(options.url(), model, {
          ...(options.fetch && { fetch: options.fetch }),
          onProgress: (p) => emit({ state: 'pulling', message: null, ...p }),
        })
          .then(
            () =>
              emit({
                state: 'done',
                status: 'success',
                completedBytes: null,
                totalBytes: null,
                message: null,
              }),
            (error: unknown) =>
              emit({
                state: 'failed',
                status: 'error',
                completedBytes: null,
                totalBytes: null,
                message: error instanceof Error ? error.message : String(error),
              }),
          )
          .finally(() => pulls.delete(model))
      }
      return { started: true as const }
    },
  }
}
