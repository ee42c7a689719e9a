import type { HistoryEntry } from './history/gitHistory'
import type { BackupInfo } from './recovery/backups'
import type { TrashEntry } from './recovery/trash'
import type { WatchOptions, WorkspaceWatcher } from './watcher'

export type EntryType = 'file' | 'directory'

/** A file or folder, named by agent path. */
export interface EntryInfo {
  readonly path: string
  readonly name: string
  readonly type: EntryType
  /** Bytes; files only. */
  readonly size?: number
  /** ISO 8601. */
  readonly modified: string
}

export interface ListOptions {
  /** Glob matched against the path relative to the listed folder (a pattern without `/` matches names). */
  readonly glob?: string
  readonly recursive?: boolean
  readonly offset?: number
  /** Default 200. */
  readonly limit?: number
}

export interface ListResult {
  readonly path: string
  readonly entries: EntryInfo[]
  /** Matching entries in total (before paging). */
  readonly total: number
  /** Pass as `offset` to get the next page; absent on the last page. */
  readonly nextOffset?: number
  /** True when the walk stopped at its safety cap, so `total` is a lower bound. */
  readonly truncated: boolean
}

export interface FindOptions {
  /** Folder to search in; default `/`. */
  readonly dir?: string
  /** Default 100. */
  readonly limit?: number
}

export interface FindResult {
  readonly matches: EntryInfo[]
  readonly truncated: boolean
}

export interface WriteOptions {
  /** Keep a numbered backup when overwriting (default true). */
  readonly backup?: boolean
  /** Allow replacing an existing file (default true); false makes an existing file a conflict. */
  readonly overwrite?: boolean
  /** History commit message; default `write <path>`. */
  readonly message?: string
}

export interface WriteReceipt {
  readonly path: string
  readonly bytes: number
  readonly created: boolean
  /** Agent path of the backup taken of the previous content. */
  readonly backup?: string
  /** History version recording this write. */
  readonly version?: string
}

export interface TransferOptions {
  /** Replace an existing file at the destination (its content is backed up first). Default false. */
  readonly overwrite?: boolean
}

export interface TransferReceipt {
  readonly from: string
  readonly to: string
  readonly type: EntryType
  /** Files copied (copy) or moved. */
  readonly files: number
  /** Symbolic links left out of a folder copy. */
  readonly skippedLinks?: number
  readonly backup?: string
}

export interface DeleteReceipt {
  readonly path: string
  readonly type: EntryType
  /** Pass to `restoreDeleted` to undo. */
  readonly trashId: string
}

export interface RestoreReceipt extends WriteReceipt {
  /** The backup file or history version the content came from. */
  readonly restoredFrom: string
}

export interface HistoryAccess {
  readonly enabled: boolean
  /** Versions that changed the file, newest first (deleted files included). */
  list(path: string, limit?: number): Promise<HistoryEntry[]>
  /** Content of the file in a version. */
  read(path: string, version: string): Promise<Uint8Array>
  /** Writes the file back as it was in `version` (default: the newest version that has content). */
  restore(path: string, version?: string): Promise<RestoreReceipt>
}

/**
 * The agent's sandboxed file system. Every path is an agent path (`/` = workspace root); every write is
 * atomic, backed up on overwrite and recorded in the history. Errors are AppErrors without host paths.
 */
export interface Workspace {
  /** Real host path of the root. For the app's own use; never show it to a model. */
  readonly root: string
  /** Agent path -> checked real host path (symlinks resolved, containment verified). */
  resolve(path: string): Promise<string>
  /** Host path -> agent path; throws when outside the workspace. */
  toAgent(hostPath: string): string
  exists(path: string): Promise<boolean>
  readFile(path: string, options?: { maxBytes?: number }): Promise<Buffer>
  readText(path: string, options?: { maxBytes?: number }): Promise<string>
  writeFile(path: string, data: string | Uint8Array, options?: WriteOptions): Promise<WriteReceipt>
  appendText(path: string, text: string): Promise<WriteReceipt>
  stat(path: string): Promise<EntryInfo>
  list(path: string, options?: ListOptions): Promise<ListResult>
  find(pattern: string, options?: FindOptions): Promise<FindResult>
  mkdir(path: string): Promise<{ path: string; created: boolean }>
  move(from: string, to: string, options?: TransferOptions): Promise<TransferReceipt>
  copy(from: string, to: string, options?: TransferOptions): Promise<TransferReceipt>
  /** Moves the file or folder to `.bureau/trash`. */
  delete(path: string): Promise<DeleteReceipt>
  listTrash(): Promise<TrashEntry[]>
  restoreDeleted(trashId: string, to?: string): Promise<{ path: string; type: EntryType }>
  listBackups(path: string): Promise<BackupInfo[]>
  /** Brings back a backup (default the newest); the current content is backed up first, so it can be undone. */
  restoreBackup(path: string, number?: number): Promise<RestoreReceipt>
  readonly history: HistoryAccess
  watch(options: WatchOptions): Promise<WorkspaceWatcher>
  /** Stops watchers and waits for pending history commits. */
  close(): Promise<void>
}
