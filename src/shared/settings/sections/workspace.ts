import { z } from 'zod'

/** A folder given in full: `/…`, `~` or `~/…`, `C:\…` or a `\\server\share` path. */
export const FULL_FOLDER_PATH = /^(~(?:[\\/]|$)|\/|[A-Za-z]:[\\/]|\\\\)/
export const FOLDER_PATH_MESSAGE =
  'Enter the full path of the folder, e.g. ~/Bureau or /home/ana/Bureau (C:\\Users\\ana\\Bureau on Windows).'

/** The folder the agent works in. `null`: `--workspace`, then `BUREAU_WORKSPACE`, then ~/Bureau. */
export const WorkspaceSettings = z.looseObject({
  folder: z.string().trim().min(1).nullable().default(null),
  /** Numbered backups kept per file (`report.001.bak`…); the oldest beyond this are pruned. */
  backupsToKeep: z.number().int().min(0).max(10_000).default(20),
})
