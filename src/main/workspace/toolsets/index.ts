import { createFilesToolset } from './filesToolset'
import { createHistoryToolset } from './historyToolset'
import type { ToolsetApi } from './toolsetApi'

export type { ToolsetApi } from './toolsetApi'

export function createWorkspaceToolsets(api: ToolsetApi) {
  return [createFilesToolset(api), createHistoryToolset(api)] as const
}
