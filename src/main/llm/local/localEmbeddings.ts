import type { Llama, LlamaEmbeddingContext, LlamaModel } from 'node-llama-cpp'
import { AppError } from '../../../shared/errors'
import { DEFAULT_IDLE_UNLOAD_MS, loadError, loadGguf } from './localRuntime'
import { ModelSlot } from './modelSlot'

interface LoadedEmbeddings {
  model: LlamaModel
  context: LlamaEmbeddingContext
  /** Tokens a passage may have: the context less room for the special tokens llama.cpp adds. */
  room: number
}

/** Passages are chunks of a few hundred tokens; a larger context only costs memory. */
const EMBEDDING_CONTEXT = 2048

/**
 * A GGUF embedding model next to the chat model (its own slot, so indexing never unloads the model a
 * chat uses). Passages are embedded one after the other on its single context; a passage longer than
 * the context is cut to fit, which only loses the tail of an unusually long chunk.
 */
export class LocalEmbeddings {
  private readonly slot: ModelSlot<LoadedEmbeddings>

  constructor(
    private readonly backend: () => Promise<Llama>,
    idleUnloadMs: () => number = () => DEFAULT_IDLE_UNLOAD_MS,
  ) {
    this.slot = new ModelSlot(async ({ model, context }) => {
      await context.dispose()
      await model.dispose()
    }, idleUnloadMs)
  }

  async embed(path: string, texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    try {
      const { model, context, room } = await this.slot.load(path, (modelPath) => this.open(modelPath))
      const vectors: number[][] = []
      for (const text of texts) {
        if (signal?.aborted) throw new AppError('CANCELLED', 'Embedding was cancelled.')
        const tokens = model.tokenize(text).slice(0, room)
        vectors.push([...(await context.getEmbeddingFor(tokens)).vector])
      }
      return vectors
    } finally {
      this.slot.scheduleIdle()
    }
  }

  /** The loaded (or loading) embedding model's path, if any. */
  get current(): string | undefined {
    return this.slot.path
  }

  unload(): Promise<void> {
    return this.slot.unload()
  }

  private async open(path: string): Promise<LoadedEmbeddings> {
    const model = await loadGguf(await this.backend(), path)
    try {
      const contextSize = Math.min(EMBEDDING_CONTEXT, model.trainContextSize)
      const context = await model.createEmbeddingContext({ contextSize })
      return { model, context, room: Math.max(1, contextSize - 8) }
    } catch (error) {
      await model.dispose()
      throw loadError(path, error)
    }
  }
}
