import type { Automation, FileTrigger } from '../../shared/automations'
import { compileGlob, type Workspace } from '../workspace'

type FileAutomation = Automation & { trigger: FileTrigger }

export interface FileTriggerOptions {
  workspace: Workspace
  /** Quiet time after a file's last change before it counts as settled. */
  settleMs: number
  /** The enabled file automations, read at each change (the list changes while it runs). */
  automations: () => Promise<FileAutomation[]>
  onFile: (automation: FileAutomation, agentPath: string) => void
  onError: (message: string) => void
}

export interface FileTriggers {
  close(): Promise<void>
}

/** Whether an agent path lies below a trigger's folder and matches its glob (name or path below the folder). */
export function matchesFileTrigger(trigger: FileTrigger, agentPath: string): boolean {
  const folder = trigger.folder === '/' ? '/' : `${trigger.folder.replace(/\/+$/, '')}/`
  if (!agentPath.startsWith(folder)) return false
  const relative = agentPath.slice(folder.length)
  const name = relative.split('/').pop() ?? relative
  const match = compileGlob(trigger.glob, { nocase: true })
  return trigger.glob.includes('/') ? match(relative) : !relative.includes('/') && match(name)
}

/**
 * Runs on the workspace watcher: a file added or changed under a trigger's folder is run once it has
 * been quiet for `settleMs` (a file still being written is not handed over half-done).
 */
export async function watchFileTriggers(options: FileTriggerOptions): Promise<FileTriggers> {
  const settling = new Map<string, NodeJS.Timeout>()
  // Settled files are handed over one after another, so runs queue in the order the files settled
  // (each check awaits the disk; checked side by side, a later file could overtake an earlier one).
  let handing: Promise<void> = Promise.resolve()
  const settled = (agentPath: string) => {
    settling.delete(agentPath)
    handing = handing
      .then(async () => {
        if (!(await options.workspace.exists(agentPath))) return
        const info = await options.workspace.stat(agentPath)
        if (info.type !== 'file') return
        for (const automation of await options.automations()) {
          if (matchesFileTrigger(automation.trigger, agentPath)) options.onFile(automation, agentPath)
        }
      })
      .catch((error) =>
        options.onError(`A file trigger failed: ${error instanceof Error ? error.message : String(error)}`),
      )
  }
  const watcher = await options.workspace.watch({
    debounceMs: 100,
    onChange: (event) => {
      for (const change of event.changes) {
        if (change.kind !== 'add' && change.kind !== 'change') continue
        clearTimeout(settling.get(change.path))
        const timer = setTimeout(() => settled(change.path), options.settleMs)
        timer.unref()
        settling.set(change.path, timer)
      }
    },
    onError: options.onError,
  })
  await watcher.ready
  return {
    async close() {
      for (const timer of settling.values()) clearTimeout(timer)
      settling.clear()
      await watcher.close()
      await handing
    },
  }
}
