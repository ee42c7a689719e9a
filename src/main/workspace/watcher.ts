import path from 'node:path'
import { z } from 'zod'
import { isInternalName, isTempName } from './internalPaths'

export const WorkspaceChangeKind = z.enum(['add', 'change', 'unlink', 'addDir', 'unlinkDir'])

/** Payload of the `workspace.changed` event: agent paths only, coalesced over the debounce window. */
export const WorkspaceChanged = z.object({
  changes: z.array(z.object({ path: z.string(), kind: WorkspaceChangeKind })),
})
export type WorkspaceChanged = z.infer<typeof WorkspaceChanged>
export const WORKSPACE_CHANGED = 'workspace.changed'

export interface WatchOptions {
  readonly onChange: (event: WorkspaceChanged) => void
  /** Quiet time before a batch is emitted. Default 150 ms, at least 60 ms. */
  readonly debounceMs?: number
  readonly onError?: (message: string) => void
}

export interface WorkspaceWatcher {
  /** Resolves once the initial scan is done and later changes will be reported. */
  readonly ready: Promise<void>
  close(): Promise<void>
}

/** Watches the workspace with chokidar, skipping `.bureau/` and temp files, and emits debounced batches. */
export async function watchWorkspace(
  rootReal: string,
  toAgent: (hostPath: string) => string,
  options: WatchOptions,
): Promise<WorkspaceWatcher> {
  const { watch } = await import('chokidar')
  // chokidar drops a second change of a file within 50 ms of the first: a batch sent later than that
  // window is never older than what a dropped change wrote.
  const debounceMs = Math.max(options.debounceMs ?? 150, 60)
  const pending = new Map<string, z.infer<typeof WorkspaceChangeKind>>()
  let timer: NodeJS.Timeout | undefined
  const flush = () => {
    timer = undefined
    if (pending.size === 0) return
    const changes = [...pending].map(([agentPath, kind]) => ({ path: agentPath, kind }))
    pending.clear()
    options.onChange({ changes })
  }
  const watcher = watch(rootReal, {
    ignoreInitial: true,
    followSymlinks: false,
    ignored: (hostPath: string) => isIgnored(rootReal, hostPath),
  })
  watcher.on('all', (event, hostPath) => {
    const kind = WorkspaceChangeKind.safeParse(event)
    if (!kind.success) return
    pending.set(toAgent(hostPath), kind.data)
    clearTimeout(timer)
    timer = setTimeout(flush, debounceMs)
  })
  watcher.on('error', (error) => options.onError?.(`Workspace watcher: ${errorName(error)}`))
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()))
  return {
    ready,
    close: async () => {
      clearTimeout(timer)
      await watcher.close()
    },
  }
}

function isIgnored(rootReal: string, hostPath: string): boolean {
  const relative = path.relative(rootReal, hostPath)
  if (relative === '') return false
  const parts = relative.split(path.sep)
  return isInternalName(parts[0]!) || isTempName(parts.at(-1)!)
}

function errorName(error: unknown): string {
  return typeof error === 'object' && error && 'code' in error ? String(error.code) : 'failed'
}
