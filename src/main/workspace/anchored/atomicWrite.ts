import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { TEMP_PREFIX } from '../internalPaths'
import type { WriteFs, WriteHandle } from './fsSeam'

export interface AtomicWriteOptions {
  /** File mode for a new file (an overwrite keeps the caller-supplied mode of the old file). */
  readonly mode?: number
  /** Runs right before the rename; throwing aborts the write (used to re-check containment). */
  readonly beforeRename?: () => Promise<void>
}

/**
 * Writes `data` to `target` so that readers see either the old or the new content, never a mix:
 * temp file in the same folder (O_EXCL, so a planted symlink is never followed), fsync, rename over the
 * target, fsync the folder. On any failure the temp file is removed and the target is untouched.
 */
export async function writeFileAtomic(
  fs: WriteFs,
  target: string,
  data: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const folder = path.dirname(target)
  const temp = path.join(folder, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}.tmp`)
  let created = false
  try {
    const handle = await fs.open(temp, 'wx', options.mode ?? 0o666)
    created = true
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await options.beforeRename?.()
    await fs.rename(temp, target)
  } catch (error) {
    if (created) await fs.unlink(temp).catch(() => undefined)
    throw error
  }
  await syncFolder(fs, folder)
}

/**
 * Makes the rename itself durable where the platform allows it (Windows cannot open folders for sync).
 * Best effort: the new content is already in place, so a failure here must not report the write as failed.
 */
async function syncFolder(fs: WriteFs, folder: string): Promise<void> {
  let handle: WriteHandle | undefined
  try {
    handle = await fs.open(folder, 'r')
    await handle.sync()
  } catch {
    // not supported here
  } finally {
    await handle?.close().catch(() => undefined)
  }
}
