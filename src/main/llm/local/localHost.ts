import { LocalEmbeddings } from './localEmbeddings'
import { LocalRuntime, type LocalRuntimeOptions } from './localRuntime'

/** What the `local` provider kind needs from the app: where installed models live, and the runtime. */
export interface LocalModelHost {
  /** The .gguf file of an installed model id (an absolute path is taken as is); throws NOT_FOUND. */
  modelPath(model: string): Promise<string>
  runtime: LocalRuntime
}

let shared: LocalRuntime | undefined

/** One runtime per process: one model in memory, whichever client or command asks for it. */
export function sharedLocalRuntime(options: LocalRuntimeOptions = {}): LocalRuntime {
  shared ??= new LocalRuntime(options)
  return shared
}

/** The process-wide runtime if one was created (never creates it). */
export function existingLocalRuntime(): LocalRuntime | undefined {
  return shared
}

let sharedEmbeddings: LocalEmbeddings | undefined

/** One embedding-model slot per process, on the shared runtime's llama.cpp backend. */
export function sharedLocalEmbeddings(options: LocalRuntimeOptions = {}): LocalEmbeddings {
  sharedEmbeddings ??= new LocalEmbeddings(() => sharedLocalRuntime(options).backend(), options.idleUnloadMs)
  return sharedEmbeddings
}

/** The process-wide embedding slot if one was created (never creates it). */
export function existingLocalEmbeddings(): LocalEmbeddings | undefined {
  return sharedEmbeddings
}
