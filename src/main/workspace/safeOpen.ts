import { constants } from 'node:fs'
import { open, realpath, stat } from 'node:fs/promises'
import { isInside } from './containment'
import { refuse, workspaceError } from './errors'

// O_NOFOLLOW: a symlink swapped in at the last component after the check fails to open (ELOOP).
// O_NONBLOCK: a FIFO planted in the workspace cannot hang the reader; harmless for regular files.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

/**
 * Reads a file at a host path that `locateInside` produced (already real). The open itself refuses a final
 * symlink; afterwards the path is re-resolved and compared with the opened file, which catches a folder
 * swapped for a symlink between the check and the open.
 */
export async function readChecked(
  rootReal: string,
  hostPath: string,
  agentPath: string,
  maxBytes?: number,
): Promise<Buffer> {
  const handle = await open(hostPath, READ_FLAGS)
  try {
    const opened = await handle.stat()
    if (opened.isDirectory()) throw workspaceError('CONFLICT', `${agentPath} is a folder, not a file.`)
    if (!opened.isFile()) throw workspaceError('UNSUPPORTED', `${agentPath} is not a regular file.`)
    if (maxBytes !== undefined && opened.size > maxBytes) {
      throw workspaceError(
        'TOO_LARGE',
        `${agentPath} is ${opened.size} bytes; the limit here is ${maxBytes}.`,
      )
    }
    await verifyUnchanged(rootReal, hostPath, opened)
    return await handle.readFile()
  } finally {
    await handle.close()
  }
}

async function verifyUnchanged(rootReal: string, hostPath: string, opened: { dev: number; ino: number }) {
  // Compared by identity, not by string: a case-insensitive file system may spell the real path differently.
  const real = await realpath(hostPath)
  if (!isInside(rootReal, real)) refuse('symlink-escape', 'the path resolves outside the workspace.')
  const current = await stat(real)
  if (current.dev !== opened.dev || current.ino !== opened.ino) {
    refuse('symlink-escape', 'the path changed while it was being opened (a symbolic link was swapped in).')
  }
}

/** Right before a rename or create: the folder must still be the real, contained folder that was checked. */
export async function verifyFolder(rootReal: string, folder: string): Promise<void> {
  const real = await realpath(folder)
  if (!isInside(rootReal, real)) {
    refuse('symlink-escape', 'a folder on the path was replaced by a symbolic link while writing.')
  }
}
