import type { Llama, LlamaChat, LlamaContext, LlamaModel } from 'node-llama-cpp'
import { AppError } from '../../../shared/errors'
import { ModelSlot } from './modelSlot'

/** Contexts larger than this are not chosen automatically: on a CPU they cost memory and time for little gain. */
export const LOCAL_AUTO_CONTEXT_CAP = 32_768
/** The smallest context worth loading; below it the agent's system prompt does not fit. */
export const LOCAL_MIN_CONTEXT = 2048
export const DEFAULT_IDLE_UNLOAD_MS = 10 * 60_000

export interface LocalRuntimeOptions {
  /** Unload the model after this long without a request; 0 keeps it loaded. Read on every request. */
  idleUnloadMs?: () => number
  /** `auto` uses CUDA, Vulkan or Metal when present, else the CPU. */
  gpu?: 'auto' | false
  /**
   * CPU threads for generation; default: the machine's math cores (node-llama-cpp's `cpuMathCores`).
   * More threads than free cores makes llama.cpp's workers spin against each other and slows it a lot.
   */
  threads?: number
  /** RAM to leave to the rest of the machine when sizing the context (node-llama-cpp's default when absent). */
  ramPadding?: (totalRamBytes: number) => number
}

/** A model in memory with its one context and chat (requests run one at a time). */
export interface LoadedModel {
  path: string
  model: LlamaModel
  context: LlamaContext
  chat: LlamaChat
  llama: Llama
  /** Milliseconds the load took (for the bench and the logs). */
  loadMs: number
}

export interface LoadOptions {
  /** The configured context window; default: chosen from the model and free memory. */
  contextWindow?: number | undefined
}

/** The user-facing error when node-llama-cpp refuses a file or runs out of memory. */
export function loadError(path: string, error: unknown): AppError {
  const text = error instanceof Error ? error.message : String(error)
  if (/memory|VRAM|RAM/i.test(text))
    return new AppError(
      'TOO_LARGE',
      `The model ${path} does not fit in this machine's free memory (${text}). Close other programs or choose a smaller model in Settings → Local models.`,
    )
  return new AppError(
    'UNAVAILABLE',
    `Could not load the model ${path}: ${text}. The file may be damaged or not a GGUF model; import or download it again.`,
  )
}

/** Loads a .gguf file into llama.cpp, with the user-facing error when it cannot. */
export async function loadGguf(llama: Llama, path: string): Promise<LlamaModel> {
  try {
    return await llama.loadModel({ modelPath: path })
  } catch (error) {
    throw loadError(path, error)
  }
}

/**
 * The embedded llama.cpp: loads one model at a time, lazily (node-llama-cpp is imported on first use),
 * serialises requests on its single context sequence, and unloads the model after an idle time.
 */
export class LocalRuntime {
  private llama: Promise<Llama> | undefined
  private readonly slot: ModelSlot<LoadedModel>
  private queue: Promise<unknown> = Promise.resolve()
  private busy = 0

  constructor(private readonly options: LocalRuntimeOptions = {}) {
    this.slot = new ModelSlot(
      async (loaded) => {
        loaded.chat.dispose({ disposeSequence: true })
        await loaded.context.dispose()
        await loaded.model.dispose()
      },
      () => options.idleUnloadMs?.() ?? DEFAULT_IDLE_UNLOAD_MS,
    )
  }

  /** The loaded model's path, if any. */
  get current(): string | undefined {
    return this.slot.path
  }

  /** The llama.cpp backend, imported and started on first use (shared with the embedding models). */
  backend(): Promise<Llama> {
    this.llama ??= import('node-llama-cpp').then(({ getLlama }) =>
      // `build: never`: the prebuilt binaries only; compiling llama.cpp on a user's machine is not an option.
      getLlama({
        gpu: this.options.gpu ?? 'auto',
        build: 'never',
        progressLogs: false,
        ...(this.options.ramPadding && { ramPadding: this.options.ramPadding }),
      }),
    )
    return this.llama
  }

  /** Loads `path` (unloading another model first) and returns it; the same path is loaded once. */
  load(path: string, options: LoadOptions = {}): Promise<LoadedModel> {
    return this.slot.load(path, (modelPath) => this.open(modelPath, options))
  }

  private async open(path: string, options: LoadOptions): Promise<LoadedModel> {
    const started = performance.now()
    const llama = await this.backend()
    const { LlamaChat } = await import('node-llama-cpp')
    const model = await loadGguf(llama, path)
    try {
      const train = model.trainContextSize
      const wanted = options.contextWindow
      // node-llama-cpp picks the largest size in the range that fits the free (V)RAM.
      const contextSize = wanted
        ? Math.min(wanted, train)
        : { min: Math.min(LOCAL_MIN_CONTEXT, train), max: Math.min(train, LOCAL_AUTO_CONTEXT_CAP) }
      const threads = this.options.threads ?? llama.cpuMathCores
      const context = await model.createContext({ contextSize, threads: Math.max(1, threads) })
      const chat = new LlamaChat({ contextSequence: context.getSequence() })
      return { path, model, context, chat, llama, loadMs: performance.now() - started }
    } catch (error) {
      await model.dispose()
      throw loadError(path, error)
    }
  }

  /** Runs `task` on the loaded model when the previous request has finished. */
  async run<T>(path: string, options: LoadOptions, task: (loaded: LoadedModel) => Promise<T>): Promise<T> {
    const previous = this.queue
    let release: () => void = () => {}
    this.queue = new Promise<void>((resolve) => {
      release = resolve
    })
    this.busy++
    try {
      await previous.catch(() => {})
      return await task(await this.load(path, options))
    } finally {
      this.busy--
      release()
      this.scheduleIdle()
    }
  }

  /** Frees the model and its context (the llama.cpp backend stays, it is cheap). */
  unload(): Promise<void> {
    return this.slot.unload()
  }

  private scheduleIdle(): void {
    if (this.busy === 0) this.slot.scheduleIdle()
  }
}
