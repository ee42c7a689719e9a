export { type ParsedAgentPath, parseAgentPath } from './agentPath'
export type { BackupInfo } from './backups'
export { type CreatedWorkspace, type CreateWorkspaceOptions, createWorkspace } from './createWorkspace'
export { type CurrentWorkspace, type CurrentWorkspaceOptions, currentWorkspace } from './currentWorkspace'
export { fromFsError, PathRefusedError, type PathRule } from './errors'
export type { WriteFs, WriteHandle } from './fsSeam'
export type { HistoryEntry } from './history/gitHistory'
export { INTERNAL_DIR } from './internalPaths'
export { TrashEntry } from './trash'
export type {
  DeleteReceipt,
  EntryInfo,
  EntryType,
  FindOptions,
  FindResult,
  HistoryAccess,
  ListOptions,
  ListResult,
  RestoreReceipt,
  TransferOptions,
  TransferReceipt,
  Workspace,
  WriteOptions,
  WriteReceipt,
} from './types'
export {
  type WatchOptions,
  WORKSPACE_CHANGED,
  WorkspaceChanged,
  WorkspaceChangeKind,
  type WorkspaceWatcher,
} from './watcher'
export { type WorkspaceHandlerOptions, workspaceHandlers } from './workspaceHandlers'
