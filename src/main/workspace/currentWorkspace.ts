import { createWorkspace } from './createWorkspace'
import type { Workspace } from './types'
import type { WorkspaceChanged } from './watcher'

const DEFAULT_BACKUPS_TO_KEEP = 20

export interface CurrentWorkspaceOptions {
  /** The folder in effect now (settings: flag > BUREAU_WORKSPACE > setting > ~/Bureau). */
  root: () => string
  /** The setting `workspace.backupsToKeep` (default 20). */
  backupsToKeep?: () => number
  /** Batches of changed agent paths (the watcher starts with the first use). */
  onChange?: (event: WorkspaceChanged) => void
  onWarning?: (message: string) => void
}

export interface CurrentWorkspace {
  /** The workspace of the folder in effect; reopened when the folder or the backups setting changed. */
  get(): Workspace
  close(): Promise<void>
}

/** One workspace instance for the whole app (chat runs and the workspace routes share its history). */
export function currentWorkspace(options: CurrentWorkspaceOptions): CurrentWorkspace {
  let workspace: Workspace | undefined
  let keep: number | undefined
  let closing: Promise<void> = Promise.resolve()
  return {
    get() {
      const root = options.root()
      const backupsToKeep = options.backupsToKeep?.() ?? DEFAULT_BACKUPS_TO_KEEP
      if (!workspace || workspace.root !== root || keep !== backupsToKeep) {
        const previous = workspace
        if (previous) closing = closing.then(() => previous.close())
        keep = backupsToKeep
        workspace = createWorkspace({
          root,
          backupsToKeep,
          ...(options.onChange ? { onChange: options.onChange } : {}),
          ...(options.onWarning ? { onWarning: options.onWarning } : {}),
        })
      }
      return workspace
    },
    async close() {
      await closing
      await workspace?.close()
      workspace = undefined
    },
  }
}
