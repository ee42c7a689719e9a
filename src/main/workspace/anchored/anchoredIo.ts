import { constants } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'
import { fromFsError, workspaceError } from '../errors'
import { verifyOpenedFile } from './anchoredDir'
import { type Anchored, notRegular } from './anchoredWalk'

// O_NOFOLLOW: a symlink swapped in at the last component fails to open (ELOOP) instead of being followed.
// O_NONBLOCK: opening a named pipe never waits for a writer; the type check below then refuses it.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

/**
 * Opens the regular file `target` names, through its anchored folder, and checks the opened descriptor:
 * a regular file, inside the workspace, not above `maxBytes`.
 */
export async function openRegular(
  rootReal: string,
  target: Anchored,
  maxBytes?: number,
): Promise<FileHandle> {
  if (target.kind === 'missing') throw workspaceError('NOT_FOUND', `${target.agentPath} does not exist.`)
  if (target.kind === 'directory' || target.name === undefined) {
    throw workspaceError('CONFLICT', `${target.agentPath} is a folder, not a file.`)
  }
  if (target.kind === 'other') throw notRegular(target.agentPath)
  await target.dir.verify()
  const handle = await open(target.dir.child(target.name), READ_FLAGS).catch((error: unknown) => {
    throw fromFsError(error, target.agentPath)
  })
  try {
    const opened = await handle.stat()
    if (opened.isDirectory()) throw workspaceError('CONFLICT', `${target.agentPath} is a folder, not a file.`)
    if (!opened.isFile()) throw notRegular(target.agentPath)
    if (maxBytes !== undefined && opened.size > maxBytes) {
      throw workspaceError(
        'TOO_LARGE',
        `${target.agentPath} is ${opened.size} bytes; the limit here is ${maxBytes}.`,
      )
    }
    await verifyOpenedFile(rootReal, handle, target.dir.child(target.name))
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

/** Reads the whole regular file `target` names (see openRegular). */
export async function readAnchored(rootReal: string, target: Anchored, maxBytes?: number): Promise<Buffer> {
  const handle = await openRegular(rootReal, target, maxBytes)
  try {
    return await handle.readFile()
  } catch (error) {
    throw fromFsError(error, target.agentPath)
  } finally {
    await handle.close()
  }
}
