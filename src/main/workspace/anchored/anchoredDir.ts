import { constants, existsSync, type Stats } from 'node:fs'
import { type FileHandle, open, readlink, realpath, stat } from 'node:fs/promises'
import path from 'node:path'
import { refuse, workspaceError } from '../errors'
import { isInside } from './containment'

// Linux: `/proc/self/fd/N/name` names `name` inside exactly the folder the descriptor N holds (the kernel
// jumps to the open folder, whatever its path is now), which gives openat()-like calls through Node's
// path-based fs API. Elsewhere the folder is named by its checked real path and its identity re-checked.
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd')

const DIR_FLAGS =
  constants.O_RDONLY |
  (constants.O_DIRECTORY ?? 0) |
  (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0)

/** An open, contained folder that every operation of one step goes through. Close it when done. */
export class AnchoredDir {
  private constructor(
    private readonly handle: FileHandle | undefined,
    /** Real host path when it was opened (bookkeeping: agent paths, history). */
    readonly real: string,
    readonly isRoot: boolean,
    private readonly rootReal: string,
  ) {}

  /** Opens the workspace root itself. */
  static async openRoot(rootReal: string): Promise<AnchoredDir> {
    const handle = await openDirHandle(rootReal)
    const dir = new AnchoredDir(handle, rootReal, true, rootReal)
    if (PROC_FD && (await dir.currentReal()) !== rootReal) {
      await dir.close()
      refuse('symlink-escape', 'the workspace folder itself was replaced while opening it.')
    }
    return dir
  }

  /** Opens the sub-folder `name` without following a symbolic link (ELOOP/ENOTDIR when it is not a folder). */
  async openChild(name: string): Promise<AnchoredDir> {
    const child = this.child(name)
    const handle = await openDirHandle(child)
    const dir = new AnchoredDir(handle, path.join(this.real, name), false, this.rootReal)
    if (!PROC_FD)
      await dir.checkIdentity().catch(async (error: unknown) => {
        await dir.close()
        throw error
      })
    return dir
  }

  /** A host path that names `name` in this very folder (or the folder itself without a name). */
  child(name?: string): string {
    const base = PROC_FD && this.handle ? `/proc/self/fd/${this.handle.fd}` : this.real
    return name === undefined ? base : path.join(base, name)
  }

  /**
   * Right before reading, creating or renaming through this folder: it must still lie inside the workspace
   * (a folder moved outside by another program keeps its descriptor).
   */
  async verify(): Promise<void> {
    if (PROC_FD) {
      const current = await this.currentReal()
      if (!isInside(this.rootReal, current)) {
        refuse('symlink-escape', 'a folder on the path was moved outside the workspace while in use.')
      }
      return
    }
    await this.checkIdentity()
  }

  /** The folder's own metadata (through the descriptor where there is one). */
  stat(): Promise<Stats> {
    return this.handle ? this.handle.stat() : stat(this.real)
  }

  async close(): Promise<void> {
    await this.handle?.close().catch(() => undefined)
  }

  private async currentReal(): Promise<string> {
    const target = await readlink(`/proc/self/fd/${this.handle!.fd}`)
    if (target.endsWith(' (deleted)')) throw workspaceError('NOT_FOUND', 'a folder on the path was deleted.')
    return target
  }

  /** Without /proc: the checked path must still be contained and still be the folder that was opened. */
  private async checkIdentity(): Promise<void> {
    const real = await realpath(this.real)
    if (!isInside(this.rootReal, real)) {
      refuse('symlink-escape', 'a folder on the path was replaced by a symbolic link while in use.')
    }
    if (!this.handle) return
    const [opened, current] = await Promise.all([this.handle.stat(), stat(real)])
    if (!sameFile(opened, current)) {
      refuse('symlink-escape', 'a folder on the path was swapped while in use.')
    }
  }
}

/** Checks an opened file descriptor: it must be the contained file the caller looked up. */
export async function verifyOpenedFile(
  rootReal: string,
  handle: FileHandle,
  expectedHostPath: string,
): Promise<void> {
  if (PROC_FD) {
    const target = await readlink(`/proc/self/fd/${handle.fd}`)
    if (!isInside(rootReal, target)) refuse('symlink-escape', 'the file opened is outside the workspace.')
    return
  }
  const real = await realpath(expectedHostPath)
  if (!isInside(rootReal, real)) refuse('symlink-escape', 'the path resolves outside the workspace.')
  if (!sameFile(await handle.stat(), await stat(real))) {
    refuse('symlink-escape', 'the path changed while it was being opened (a symbolic link was swapped in).')
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino
}

async function openDirHandle(hostPath: string): Promise<FileHandle | undefined> {
  // Windows cannot open a folder as a file; there the path checks alone remain.
  if (process.platform === 'win32') return undefined
  return open(hostPath, DIR_FLAGS)
}
