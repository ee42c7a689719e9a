import { open, rename, unlink } from 'node:fs/promises'

/** The file handle operations an atomic write needs. Node's FileHandle satisfies it. */
export interface WriteHandle {
  writeFile(data: Uint8Array): Promise<void>
  sync(): Promise<void>
  close(): Promise<void>
}

/**
 * The seam through which every workspace write reaches the disk, so tests can inject a crash between
 * the temp write and the rename (or a partial write) without patching globals.
 */
export interface WriteFs {
  open(hostPath: string, flags: string, mode?: number): Promise<WriteHandle>
  rename(from: string, to: string): Promise<void>
  unlink(hostPath: string): Promise<void>
}

export const nodeWriteFs: WriteFs = {
  open: (hostPath, flags, mode) => open(hostPath, flags, mode),
  rename: (from, to) => rename(from, to),
  unlink: (hostPath) => unlink(hostPath),
}
