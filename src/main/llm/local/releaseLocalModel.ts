import { existingLocalEmbeddings, existingLocalRuntime } from './localHost'

/** Unloads `path` wherever the process holds it, chat runtime or embedding slot (before its file is deleted). */
export async function releaseLocalModel(path: string): Promise<void> {
  const runtime = existingLocalRuntime()
  if (runtime?.current === path) await runtime.unload()
  const embeddings = existingLocalEmbeddings()
  if (embeddings?.current === path) await embeddings.unload()
}
