import { resolve } from 'node:path'
import type { Workspace } from '../../workspace'
import type { KnowledgeService } from './knowledgeService'

export interface SessionKnowledge {
  /** The service for a tool session's workspace. */
  forWorkspace(workspace: Workspace): KnowledgeService
  close(): Promise<void>
}

/**
 * The app's index serves sessions on its own workspace. A session on another folder (an eval task's
 * scratch workspace) gets one on-demand service whose single index is rebuilt when the folder changes,
 * so such folders neither reach the app's index nor leave one index each in the data folder.
 */
export function sessionKnowledge(options: {
  main: KnowledgeService
  mainRoot: () => string
  other: (workspace: () => Workspace) => KnowledgeService
}): SessionKnowledge {
  let current: Workspace | undefined
  let other: KnowledgeService | undefined
  return {
    forWorkspace(workspace) {
      if (resolve(workspace.root) === resolve(options.mainRoot())) return options.main
      current = workspace
      other ??= options.other(() => current!)
      return other
    },
    async close() {
      await other?.close()
    },
  }
}
