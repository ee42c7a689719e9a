import { existingLocalRuntime } from './localHost'

/** Unloads the process-wide model if it is `path` (before its file is deleted). */
export async function releaseLocalModel(path: string): Promise<void> {
  const runtime = existingLocalRuntime()
  if (runtime?.current === path) await runtime.unload()
}
