import { mkdir, rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { AppError, isAppError } from '../../shared/errors'
import { diskWriteError, isFsError } from './diskErrors'
import { checkGguf } from './ggufCheck'
import { checkModelId } from './modelId'
import { type InstalledModel, type ModelStore, sha256File } from './modelStore'

/**
 * Installs a model sent as bytes (the Settings page's file picker): written beside the store,
 * checked as a complete GGUF, then renamed into place; a bad file leaves nothing behind.
 * Messages name the user's file, never the host path of the temporary copy.
 */
export async function importBytes(
  store: ModelStore,
  fileName: string,
  bytes: Uint8Array,
  id: string,
): Promise<InstalledModel> {
  checkModelId(id)
  await mkdir(store.dir, { recursive: true })
  const partial = join(store.dir, `${id}.gguf.upload`)
  try {
    await writeFile(partial, bytes)
    await checkGguf(partial)
    const sha256 = await sha256File(partial)
    return await store.install(partial, { id, name: basename(fileName), source: fileName, sha256 })
  } catch (error) {
    await rm(partial, { force: true })
    if (isFsError(error)) throw diskWriteError(error, 'the models folder', `importing ${fileName}`)
    if (isAppError(error))
      throw new AppError(error.code, error.message.replaceAll(partial, fileName), { cause: error })
    throw error
  }
}
