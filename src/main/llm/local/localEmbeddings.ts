import type { Llama, LlamaEmbeddingContext, LlamaModel } from 'node-llama-cpp'
import { AppError } from '../../../shared/errors'
import { DEFAULT_IDLE_UNLOAD_MS, loadError } from './localRuntime'

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
  private loaded: Promise<LoadedEmbeddings> | undefined
  private loadedPath: string | undefined
  private idleTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly backend: () => Promise<Llama>,
    private readonly idleUnloadMs: () => number = () => DEFAULT_IDLE_UNLOAD_MS,
  ) {}

  async embed(path: string, texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    this.clearIdle()
    try {
      const { model, context, room } = await this.load(path)
      const vectors: number[][] = []
      for (const text of texts) {
        if (signal?.aborted) throw new AppError('CANCELLED', 'Embedding was cancelled.')
        const tokens = model.tokenize(text).slice(0, room)
        vectors.push([...(await context.getEmbeddingFor(tokens)).vector])
      }
      return vectors
    } finally {
      this.scheduleIdle()
    }
  }

  async unload(): Promise<void> {
    this.clearIdle()
    const loaded = this.loaded
    this.loaded = undefined
    this.loadedPath = undefined
    const value = await loaded?.catch(() => undefined)
    if (!value) return
    await value.context.dispose()
    await value.model.dispose()
  }

  private async load(path: string): Promise<LoadedEmbeddings> {
    if (this.loaded && this.loadedPath === path) return this.loaded
    await this.unload()
    this.loadedPath = path
    this.loaded = this.open(path).catch((error: unknown) => {
      this.loaded = undefined
      this.loadedPath = undefined
      throw error
    })
    return this.loaded
  }

  private async open(path: string): Promise<LoadedEmbeddings> {
    const llama = await this.backend()
    let model: LlamaModel
    try {
      model = await llama.loadModel({ modelPath: path })
    } catch (error) {
      throw loadError(path, error)
    }
    try {
      const contextSize = Math.min(EMBEDDING_CONTEXT, model.trainContextSize)
      const context = await model.createEmbeddingContext({ contextSize })
      return { model, context, room: Math.max(1, contextSize - 8) }
    } catch (error) {
      await model.dispose()
      throw loadError(path, error)
    }
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    this.idleTimer = undefined
  }

  private scheduleIdle(): void {
    const ms = this.idleUnloadMs()
    if (!this.loaded || ms <= 0) return
    this.idleTimer = setTimeout(() => void this.unload(), ms)
    this.idleTimer.unref()
  }
}
