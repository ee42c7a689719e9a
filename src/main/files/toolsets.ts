import { createFilesToolset } from './filesToolset'
import { createHistoryToolset } from './historyToolset'

export function createFilesToolsets() {
  return [createFilesToolset(), createHistoryToolset()] as const
}
