import { createWorkspace, type Workspace, type WorkspaceChanged } from '../../workspace'

export interface CurrentWorkspaceOptions {
  /** The folder in effect now (settings: flag > BUREAU_WORKSPACE > setting > ~/Bureau). */
  root: () => string
  /** Batches of changed agent paths (the watcher starts with the first use). */
  onChange?: (event: WorkspaceChanged) => void
  onWarning?: (message: string) => void
}

export interface CurrentWorkspace {
  /** The workspace of the folder in effect; reopened when the folder setting changed. */
  get(): Workspace
  close(): Promise<void>
}

/** One workspace instance for the whole app (chat runs and the workspace routes share its history). */
export function currentWorkspace(options: CurrentWorkspaceOptions): CurrentWorkspace {
  let workspace: Workspace | undefined
  let closing: Promise<void> = Promise.resolve()
  return {
    get() {
      const root = options.root()
      if (!workspace || workspace.root !== root) {
        const previous = workspace
        if (previous) closing = closing.then(() => previous.close())
        workspace = createWorkspace({
          root,
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
