import type { Workspace } from '../workspace'

/** A workspace, or a factory called on first use (so a run or session that never touches files opens none). */
export type WorkspaceSource = Workspace | (() => Workspace)

/** The one place a workspace source is opened: on the first call, then kept. */
export function lazyWorkspace(source: WorkspaceSource | undefined): () => Workspace | undefined {
  let workspace = typeof source === 'function' ? undefined : source
  return () => {
    if (!workspace && typeof source === 'function') workspace = source()
    return workspace
  }
}
