import path from 'node:path'
import { z } from 'zod'
import { AppError } from '../../shared/errors'
import { nodeWriteFs, type WriteFs } from './anchored/fsSeam'
import { GitHistory } from './history/gitHistory'
import { PathResolver } from './resolvePath'
import type { Workspace } from './types'
import type { WorkspaceChanged } from './watcher'
import { LocalWorkspace } from './workspace'

const Settings = z.object({
  root: z.string().min(1),
  backupsToKeep: z.number().int().min(0).max(10_000).default(20),
  history: z.boolean().default(true),
  historyMaxFileBytes: z
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  watchDebounceMs: z.number().int().min(0).default(150),
})

export interface CreateWorkspaceOptions {
  /** Host folder that becomes `/`; created when missing. */
  readonly root: string
  /** Numbered backups kept per file (default 20; 0 turns backups off). */
  readonly backupsToKeep?: number
  /** Record changes in `.bureau/history` (default true). */
  readonly history?: boolean
  /** Files above this size stay out of the history (default 64 MiB). */
  readonly historyMaxFileBytes?: number
  /** Starts a watcher that reports `workspace.changed` batches. */
  readonly onChange?: (event: WorkspaceChanged) => void
  readonly watchDebounceMs?: number
  /** Disk seam for writes (tests inject failures here). */
  readonly fs?: WriteFs
  /** Non-fatal problems (history could not record, watcher errors). */
  readonly onWarning?: (message: string) => void
}

export interface CreatedWorkspace extends Workspace {
  /** Resolves when the `onChange` watcher (if any) is watching. */
  readonly ready: Promise<void>
}

/** Opens (and creates if needed) a workspace folder. */
export function createWorkspace(options: CreateWorkspaceOptions): CreatedWorkspace {
  const parsed = Settings.safeParse(options)
  if (!parsed.success) {
    throw new AppError('VALIDATION_FAILED', `Invalid workspace settings: ${parsed.error.issues[0]?.message}`)
  }
  const settings = parsed.data
  const warn = options.onWarning ?? (() => undefined)
  const resolver = new PathResolver(path.resolve(settings.root))
  const history = settings.history
    ? new GitHistory({ root: resolver.rootReal, maxFileBytes: settings.historyMaxFileBytes, onWarning: warn })
    : undefined
  const workspace = new LocalWorkspace({
    resolver,
    writeFs: options.fs ?? nodeWriteFs,
    backupsToKeep: settings.backupsToKeep,
    history,
    warn,
  })
  const onChange = options.onChange
  const ready = onChange
    ? workspace
        .watch({ onChange, debounceMs: settings.watchDebounceMs, onError: warn })
        .then((watcher) => watcher.ready)
        .catch(() => warn('The workspace watcher could not start; changes will not be reported.'))
    : Promise.resolve()
  return Object.assign(workspace, { ready })
}
