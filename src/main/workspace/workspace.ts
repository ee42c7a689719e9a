import { lstat, mkdir, rename } from 'node:fs/promises'
import path from 'node:path'
import { writeFileAtomic } from './atomicWrite'
import { type BackupInfo, BackupStore } from './backups'
import { copyEntry } from './copyEntry'
import { errnoOf, fromFsError, refuse, workspaceError } from './errors'
import type { WriteFs } from './fsSeam'
import type { GitHistory } from './history/gitHistory'
import { HistoryRestorer } from './history/historyAccess'
import { INTERNAL_DIR } from './internalPaths'
import { findByName, listFolder } from './listing'
import type { PathResolver, ResolvedPath } from './resolvePath'
import { readChecked, verifyFolder } from './safeOpen'
import { Trash } from './trash'
import type {
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
import { toEntry } from './walk'
import { type WatchOptions, type WorkspaceWatcher, watchWorkspace } from './watcher'

export interface WorkspaceDeps {
  readonly resolver: PathResolver
  readonly writeFs: WriteFs
  readonly backupsToKeep: number
  readonly history: GitHistory | undefined
  readonly warn: (message: string) => void
}

/** The one implementation of Workspace: every other service writes through it. */
export class LocalWorkspace implements Workspace {
  readonly root: string
  readonly history: HistoryAccess
  private readonly resolver: PathResolver
  private readonly backups: BackupStore
  private readonly trash: Trash
  private readonly watchers = new Set<WorkspaceWatcher>()
  private readonly startingWatchers = new Set<Promise<WorkspaceWatcher>>()
  private mutations: Promise<unknown> = Promise.resolve()

  constructor(private readonly deps: WorkspaceDeps) {
    this.resolver = deps.resolver
    this.root = deps.resolver.rootReal
    const internalDir = path.join(this.root, INTERNAL_DIR)
    this.backups = new BackupStore({
      internalDir,
      keep: deps.backupsToKeep,
      toAgent: (hostPath) => this.resolver.toAgent(hostPath),
      toHost: (agentPath) => this.resolver.lexicalHostPath(agentPath),
    })
    this.trash = new Trash(path.join(internalDir, 'trash'))
    this.history = new HistoryRestorer(deps.history, {
      locate: async (agentPath) => this.toAgent((await this.resolver.resolve(agentPath)).hostPath),
      write: (agentPath, bytes, message) =>
        this.serial(() => this.writeUnlocked(agentPath, bytes, { message })),
    })
  }

  async resolve(agentPath: string): Promise<string> {
    return (await this.resolver.resolve(agentPath)).hostPath
  }

  toAgent(hostPath: string): string {
    return this.resolver.toAgent(hostPath)
  }

  async exists(agentPath: string): Promise<boolean> {
    return (await this.resolver.resolve(agentPath)).exists
  }

  async readFile(agentPath: string, options: { maxBytes?: number } = {}): Promise<Buffer> {
    const target = await this.existing(agentPath)
    try {
      return await readChecked(this.root, target.hostPath, target.agentPath, options.maxBytes)
    } catch (error) {
      throw fromFsError(error, target.agentPath)
    }
  }

  async readText(agentPath: string, options: { maxBytes?: number } = {}): Promise<string> {
    const bytes = await this.readFile(agentPath, options)
    return new TextDecoder('utf-8').decode(bytes)
  }

  writeFile(agentPath: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<WriteReceipt> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
    return this.serial(() => this.writeUnlocked(agentPath, bytes, options))
  }

  appendText(agentPath: string, text: string): Promise<WriteReceipt> {
    return this.serial(async () => {
      const target = await this.writable(agentPath)
      const before = target.exists
        ? await readChecked(this.root, target.hostPath, target.agentPath).catch((error: unknown) => {
            throw fromFsError(error, target.agentPath)
          })
        : Buffer.alloc(0)
      const bytes = Buffer.concat([before, Buffer.from(text, 'utf8')])
      // Appending keeps the old content as a prefix, so it needs no backup; the history still records it.
      const receipt = await this.writeResolved(target, bytes, { backup: false })
      const version = await this.record([target], `append ${target.agentPath}`)
      return version ? { ...receipt, version } : receipt
    })
  }

  async stat(agentPath: string): Promise<EntryInfo> {
    const target = await this.existing(agentPath)
    const stats = await lstat(target.hostPath).catch((error: unknown) => {
      throw fromFsError(error, target.agentPath)
    })
    return toEntry(target.agentPath, nameOf(target.agentPath), stats)
  }

  async list(agentPath: string, options: ListOptions = {}): Promise<ListResult> {
    const folder = await this.folder(agentPath)
    return listFolder(this.root, folder, options)
  }

  async find(pattern: string, options: FindOptions = {}): Promise<FindResult> {
    const folder = await this.folder(options.dir === undefined ? '/' : options.dir)
    return findByName(this.root, folder, pattern, options)
  }

  mkdir(agentPath: string): Promise<{ path: string; created: boolean }> {
    return this.serial(async () => {
      const target = await this.writable(agentPath, { allowFolder: true })
      if (target.exists) {
        if ((await lstat(target.hostPath)).isDirectory()) return { path: target.agentPath, created: false }
        throw workspaceError('CONFLICT', `${target.agentPath} already exists as a file.`)
      }
      await this.makeParents(target.hostPath, target.agentPath, true)
      return { path: target.agentPath, created: true }
    })
  }

  move(from: string, to: string, options: TransferOptions = {}): Promise<TransferReceipt> {
    return this.serial(async () => {
      const source = await this.existing(from, { forChange: true })
      const destination = await this.writable(to, { allowFolder: true })
      const type = await this.typeOf(source)
      checkNotInside(source, destination)
      const backup = await this.clearDestination(destination, type, options)
      await this.makeParents(destination.hostPath, destination.agentPath)
      await verifyFolder(this.root, path.dirname(destination.hostPath))
      await rename(source.hostPath, destination.hostPath).catch((error: unknown) => {
        throw fromFsError(error, source.agentPath)
      })
      await this.record([source, destination], `move ${source.agentPath} -> ${destination.agentPath}`)
      return {
        from: source.agentPath,
        to: destination.agentPath,
        type,
        files: 1,
        ...(backup ? { backup } : {}),
      }
    })
  }

  copy(from: string, to: string, options: TransferOptions = {}): Promise<TransferReceipt> {
    return this.serial(async () => {
      const source = await this.existing(from)
      const destination = await this.writable(to, { allowFolder: true })
      const type = await this.typeOf(source)
      checkNotInside(source, destination)
      const backup = await this.clearDestination(destination, type, options)
      const counts = await copyEntry(source, destination, {
        rootReal: this.root,
        writeFile: (target, bytes) => this.writeResolved(target, bytes, { backup: false }),
        makeFolder: (target) => this.makeParents(target.hostPath, target.agentPath, true),
      })
      await this.record([destination], `copy ${source.agentPath} -> ${destination.agentPath}`)
      return {
        from: source.agentPath,
        to: destination.agentPath,
        type,
        ...counts,
        ...(backup ? { backup } : {}),
      }
    })
  }

  delete(agentPath: string): Promise<DeleteReceipt> {
    return this.serial(async () => {
      const target = await this.existing(agentPath, { forChange: true })
      const type = await this.typeOf(target)
      // A file the history never saw is recorded first, so history can bring it back too.
      if (type === 'file') await this.record([target], `snapshot ${target.agentPath} before delete`)
      const entry = await this.trash
        .put(target.hostPath, this.toAgent(target.hostPath), type)
        .catch((error: unknown) => {
          throw fromFsError(error, target.agentPath)
        })
      await this.record([target], `delete ${target.agentPath}`)
      return { path: target.agentPath, type, trashId: entry.id }
    })
  }

  listTrash() {
    return this.trash.list()
  }

  restoreDeleted(trashId: string, to?: string): Promise<{ path: string; type: EntryType }> {
    return this.serial(async () => {
      const entry = await this.trash.entry(trashId)
      if (!entry)
        throw workspaceError('NOT_FOUND', `Nothing in the trash has id "${trashId}"; list the trash first.`)
      const target = await this.writable(to ?? entry.originalPath, { allowFolder: true })
      if (target.exists) {
        throw workspaceError('CONFLICT', `${target.agentPath} already exists; restore to another path.`)
      }
      await this.makeParents(target.hostPath, target.agentPath)
      await verifyFolder(this.root, path.dirname(target.hostPath))
      await this.trash.takeOut(trashId, target.hostPath)
      await this.record([target], `restore ${target.agentPath} from trash`)
      return { path: target.agentPath, type: entry.type }
    })
  }

  async listBackups(agentPath: string): Promise<BackupInfo[]> {
    const target = await this.resolver.resolve(agentPath)
    return this.backups.list(target.hostPath)
  }

  restoreBackup(agentPath: string, number?: number): Promise<RestoreReceipt> {
    return this.serial(async () => {
      const target = await this.writable(agentPath)
      const backups = await this.backups.list(target.hostPath)
      const chosen = number === undefined ? backups[0] : backups.find((backup) => backup.number === number)
      if (!chosen) {
        const available = backups.map((backup) => backup.number).join(', ')
        throw workspaceError(
          'NOT_FOUND',
          available
            ? `${target.agentPath} has no backup number ${number}; available: ${available}.`
            : `${target.agentPath} has no backups.`,
        )
      }
      const bytes = await readChecked(this.root, this.resolver.lexicalHostPath(chosen.path), chosen.path)
      const receipt = await this.writeResolved(target, bytes, {})
      const version = await this.record([target], `restore ${target.agentPath} from ${chosen.path}`)
      return { ...receipt, ...(version ? { version } : {}), restoredFrom: chosen.path }
    })
  }

  async watch(options: WatchOptions): Promise<WorkspaceWatcher> {
    const starting = watchWorkspace(this.root, (hostPath) => this.toAgent(hostPath), options)
    this.startingWatchers.add(starting)
    const watcher = await starting.finally(() => this.startingWatchers.delete(starting))
    this.watchers.add(watcher)
    return {
      ready: watcher.ready,
      close: async () => {
        this.watchers.delete(watcher)
        await watcher.close()
      },
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.startingWatchers])
    await Promise.all([...this.watchers].map((watcher) => watcher.close()))
    this.watchers.clear()
    await this.mutations.catch(() => undefined)
  }

  private async writeUnlocked(
    agentPath: string,
    bytes: Uint8Array,
    options: WriteOptions,
  ): Promise<WriteReceipt> {
    const target = await this.writable(agentPath)
    const receipt = await this.writeResolved(target, bytes, options)
    const version = await this.record([target], options.message ?? `write ${target.agentPath}`)
    return version ? { ...receipt, version } : receipt
  }

  /** Writes already-resolved bytes: backup of the old content, then the atomic replace. Caller holds the lock. */
  private async writeResolved(
    target: ResolvedPath,
    bytes: Uint8Array,
    options: WriteOptions,
  ): Promise<WriteReceipt> {
    const existing = target.exists ? await lstat(target.hostPath) : undefined
    if (existing?.isDirectory())
      throw workspaceError('CONFLICT', `${target.agentPath} is a folder, not a file.`)
    if (existing && options.overwrite === false) {
      throw workspaceError(
        'CONFLICT',
        `${target.agentPath} already exists; choose another name or allow overwrite.`,
      )
    }
    await this.makeParents(target.hostPath, target.agentPath)
    if (existing) await this.record([target], `snapshot ${target.agentPath} (changed outside Bureau)`)
    const backup =
      existing && options.backup !== false && this.backups.enabled
        ? await this.backups.backup(target.hostPath).catch((error: unknown) => {
            throw fromFsError(error, `${target.agentPath} (backup)`)
          })
        : undefined
    await writeFileAtomic(this.deps.writeFs, target.hostPath, bytes, {
      ...(existing ? { mode: existing.mode & 0o777 } : {}),
      beforeRename: () => verifyFolder(this.root, path.dirname(target.hostPath)),
    }).catch((error: unknown) => {
      throw fromFsError(error, target.agentPath)
    })
    return {
      path: target.agentPath,
      bytes: bytes.byteLength,
      created: !existing,
      ...(backup ? { backup } : {}),
    }
  }

  /** Resolves a path the caller may create or replace. Caller holds the lock. */
  private async writable(agentPath: string, options: { allowFolder?: boolean } = {}): Promise<ResolvedPath> {
    const target = await this.resolver.resolve(agentPath)
    if (target.agentPath === '/') refuse('root-not-allowed', 'the workspace root itself cannot be changed.')
    if (!options.allowFolder && target.exists && (await lstat(target.hostPath)).isDirectory()) {
      throw workspaceError('CONFLICT', `${target.agentPath} is a folder, not a file.`)
    }
    return target
  }

  private async existing(agentPath: string, options: { forChange?: boolean } = {}): Promise<ResolvedPath> {
    const target = await this.resolver.resolve(agentPath)
    if (!target.exists) throw workspaceError('NOT_FOUND', `${target.agentPath} does not exist.`)
    if (options.forChange && target.agentPath === '/') {
      refuse('root-not-allowed', 'the workspace root itself cannot be moved or deleted.')
    }
    return target
  }

  private async folder(agentPath: string): Promise<ResolvedPath> {
    const target = await this.existing(agentPath)
    if (!(await lstat(target.hostPath)).isDirectory()) {
      throw workspaceError('CONFLICT', `${target.agentPath} is a file, not a folder.`)
    }
    return target
  }

  private async typeOf(target: ResolvedPath): Promise<EntryType> {
    const stats = await lstat(target.hostPath)
    if (stats.isDirectory()) return 'directory'
    if (stats.isFile()) return 'file'
    throw workspaceError('UNSUPPORTED', `${target.agentPath} is not a regular file or folder.`)
  }

  /** Makes room at a move/copy destination; an overwritten file is backed up. Returns the backup path. */
  private async clearDestination(
    destination: ResolvedPath,
    sourceType: EntryType,
    options: TransferOptions,
  ): Promise<string | undefined> {
    if (!destination.exists) return undefined
    const type = await this.typeOf(destination)
    if (!options.overwrite || type === 'directory' || sourceType === 'directory') {
      throw workspaceError(
        'CONFLICT',
        type === 'directory' || sourceType === 'directory'
          ? `${destination.agentPath} already exists; folders are never merged or replaced. Pick a new name.`
          : `${destination.agentPath} already exists; pass overwrite to replace it (a backup is kept).`,
      )
    }
    await this.record([destination], `snapshot ${destination.agentPath} before overwrite`)
    return this.backups.enabled ? this.backups.backup(destination.hostPath) : undefined
  }

  private async makeParents(hostPath: string, agentPath: string, includeSelf = false): Promise<void> {
    const folder = includeSelf ? hostPath : path.dirname(hostPath)
    await mkdir(folder, { recursive: true }).catch((error: unknown) => {
      throw errnoOf(error) === 'EEXIST' || errnoOf(error) === 'ENOTDIR'
        ? workspaceError('CONFLICT', `A parent of ${agentPath} is a file, not a folder.`)
        : fromFsError(error, agentPath)
    })
  }

  /** Commits the given paths to the history; a history failure never fails the write itself. */
  private async record(targets: readonly ResolvedPath[], message: string): Promise<string | undefined> {
    const history = this.deps.history
    if (!history) return undefined
    try {
      const paths = targets.map((target) => this.toAgent(target.hostPath))
      return (await history.record(paths, message))?.slice(0, 10)
    } catch (error) {
      this.deps.warn(`History could not record "${message}" (${errnoOf(error) ?? 'error'}).`)
      return undefined
    }
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const result = this.mutations.then(task, task)
    this.mutations = result.catch(() => undefined)
    return result
  }
}

function nameOf(agentPath: string): string {
  return agentPath === '/' ? '/' : agentPath.slice(agentPath.lastIndexOf('/') + 1)
}

function checkNotInside(source: ResolvedPath, destination: ResolvedPath): void {
  const prefix = source.agentPath === '/' ? '/' : `${source.agentPath}/`
  if (destination.agentPath === source.agentPath || destination.agentPath.startsWith(prefix)) {
    throw workspaceError(
      'CONFLICT',
      `Cannot put ${source.agentPath} inside itself (${destination.agentPath}).`,
    )
  }
}
