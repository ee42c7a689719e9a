import { rename } from 'node:fs/promises'
import path from 'node:path'
import type { AnchoredDir } from './anchored/anchoredDir'
import { readAnchored } from './anchored/anchoredIo'
import {
  type Anchored,
  lstatOrUndefined,
  notRegular,
  type WalkOptions,
  walkAnchored,
  withAnchored,
} from './anchored/anchoredWalk'
import { writeFileAtomic } from './anchored/atomicWrite'
import type { WriteFs } from './anchored/fsSeam'
import { copyEntry } from './copyEntry'
import { errnoOf, fromFsError, refuse, workspaceError } from './errors'
import type { GitHistory } from './history/gitHistory'
import { HistoryRestorer } from './history/historyAccess'
import { INTERNAL_DIR } from './internalPaths'
import { findByName, listFolder } from './listing'
import { type BackupInfo, BackupStore } from './recovery/backups'
import { Trash } from './recovery/trash'
import type { PathResolver } from './resolvePath'
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
      rootReal: this.root,
      keep: deps.backupsToKeep,
      toAgent: (hostPath) => this.resolver.toAgent(hostPath),
      writeFs: deps.writeFs,
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
    return withAnchored(this.locate(agentPath), (target) => readAnchored(this.root, target, options.maxBytes))
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
    return this.serial(() =>
      withAnchored(this.writable(agentPath), async (target) => {
        const before = target.kind === 'file' ? await readAnchored(this.root, target) : Buffer.alloc(0)
        const bytes = Buffer.concat([before, Buffer.from(text, 'utf8')])
        // Appending keeps the old content as a prefix, so it needs no backup; the history still records it.
        const receipt = await this.writeResolved(target, bytes, { backup: false })
        const version = await this.record([target], `append ${target.agentPath}`)
        return version ? { ...receipt, version } : receipt
      }),
    )
  }

  async stat(agentPath: string): Promise<EntryInfo> {
    return withAnchored(this.locate(agentPath), async (target) => {
      if (!target.stats) throw workspaceError('NOT_FOUND', `${target.agentPath} does not exist.`)
      return toEntry(target.agentPath, nameOf(target.agentPath), target.stats)
    })
  }

  async list(agentPath: string, options: ListOptions = {}): Promise<ListResult> {
    return withAnchored(this.locate(agentPath), (target) =>
      this.inFolder(target, (dir) => listFolder(this.root, { agentPath: target.agentPath, dir }, options)),
    )
  }

  async find(pattern: string, options: FindOptions = {}): Promise<FindResult> {
    return withAnchored(this.locate(options.dir === undefined ? '/' : options.dir), (target) =>
      this.inFolder(target, (dir) =>
        findByName(this.root, { agentPath: target.agentPath, dir }, pattern, options),
      ),
    )
  }

  mkdir(agentPath: string): Promise<{ path: string; created: boolean }> {
    return this.serial(async () => {
      const parsed = this.resolver.parse(agentPath)
      if (parsed.path === '/') refuse('root-not-allowed', 'the workspace root itself cannot be changed.')
      const before = await withAnchored(this.locate(agentPath), async (target) => target)
      if (before.kind === 'directory') return { path: parsed.path, created: false }
      if (before.kind !== 'missing')
        throw workspaceError('CONFLICT', `${parsed.path} already exists as a file.`)
      return withAnchored(this.writable(agentPath, { createSelf: true }), async (target) => {
        if (target.kind !== 'directory') {
          throw workspaceError('CONFLICT', `${target.agentPath} already exists as a file.`)
        }
        return { path: target.agentPath, created: true }
      })
    })
  }

  move(from: string, to: string, options: TransferOptions = {}): Promise<TransferReceipt> {
    return this.serial(async () => {
      const fromPath = this.resolver.parse(from).path
      if (fromPath === '/')
        refuse('root-not-allowed', 'the workspace root itself cannot be moved or deleted.')
      checkNotInside(fromPath, this.resolver.parse(to).path)
      return withAnchored(this.existing(from, { forChange: true }), (source) =>
        withAnchored(this.writable(to), async (destination) => {
          const type = this.typeOf(source)
          checkNotInside(this.toAgent(source.hostPath), this.toAgent(destination.hostPath))
          const backup = await this.clearDestination(destination, type, options)
          await source.dir.verify()
          await destination.dir.verify()
          await rename(source.dir.child(source.name), destination.dir.child(destination.name)).catch(
            (error: unknown) => {
              throw fromFsError(error, source.agentPath)
            },
          )
          await this.record([source, destination], `move ${source.agentPath} -> ${destination.agentPath}`)
          return {
            from: source.agentPath,
            to: destination.agentPath,
            type,
            files: 1,
            ...(backup ? { backup } : {}),
          }
        }),
      )
    })
  }

  copy(from: string, to: string, options: TransferOptions = {}): Promise<TransferReceipt> {
    return this.serial(async () => {
      checkNotInside(this.resolver.parse(from).path, this.resolver.parse(to).path)
      return withAnchored(this.existing(from), (source) =>
        withAnchored(this.writable(to), async (destination) => {
          const type = this.typeOf(source)
          checkNotInside(this.toAgent(source.hostPath), this.toAgent(destination.hostPath))
          const backup = await this.clearDestination(destination, type, options)
          const counts = await copyEntry(source, destination, {
            rootReal: this.root,
            writeFile: (target, bytes) => this.writeResolved(target, bytes, { backup: false }),
          })
          await this.record([destination], `copy ${source.agentPath} -> ${destination.agentPath}`)
          return {
            from: source.agentPath,
            to: destination.agentPath,
            type,
            ...counts,
            ...(backup ? { backup } : {}),
          }
        }),
      )
    })
  }

  delete(agentPath: string): Promise<DeleteReceipt> {
    return this.serial(() =>
      withAnchored(this.existing(agentPath, { forChange: true }), async (target) => {
        const type = this.typeOf(target)
        // A file the history never saw is recorded first, so history can bring it back too.
        if (type === 'file') await this.record([target], `snapshot ${target.agentPath} before delete`)
        await target.dir.verify()
        const entry = await this.trash
          .put(target.dir.child(target.name), target.agentPath, type)
          .catch((error: unknown) => {
            throw fromFsError(error, target.agentPath)
          })
        await this.record([target], `delete ${target.agentPath}`)
        return { path: target.agentPath, type, trashId: entry.id }
      }),
    )
  }

  listTrash() {
    return this.trash.list()
  }

  restoreDeleted(trashId: string, to?: string): Promise<{ path: string; type: EntryType }> {
    return this.serial(async () => {
      const entry = await this.trash.entry(trashId)
      if (!entry)
        throw workspaceError('NOT_FOUND', `Nothing in the trash has id "${trashId}"; list the trash first.`)
      return withAnchored(this.writable(to ?? entry.originalPath), async (target) => {
        if (target.kind !== 'missing') {
          throw workspaceError('CONFLICT', `${target.agentPath} already exists; restore to another path.`)
        }
        await target.dir.verify()
        await this.trash.takeOut(trashId, target.dir.child(target.name))
        await this.record([target], `restore ${target.agentPath} from trash`)
        return { path: target.agentPath, type: entry.type }
      })
    })
  }

  async listBackups(agentPath: string): Promise<BackupInfo[]> {
    return withAnchored(this.locate(agentPath), async (target) =>
      target.name === undefined ? [] : this.backups.list({ ...target, name: target.name }),
    )
  }

  restoreBackup(agentPath: string, number?: number): Promise<RestoreReceipt> {
    return this.serial(() =>
      withAnchored(this.writable(agentPath), async (target) => {
        const backups = await this.backups.list(target)
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
        const name = chosen.path.slice(chosen.path.lastIndexOf('/') + 1)
        const stats = await lstatOrUndefined(target.dir.child(name))
        const kind = stats?.isFile() ? 'file' : stats ? 'other' : 'missing'
        const bytes = await readAnchored(this.root, { ...target, agentPath: chosen.path, name, stats, kind })
        const receipt = await this.writeResolved(target, bytes, {})
        const version = await this.record([target], `restore ${target.agentPath} from ${chosen.path}`)
        return { ...receipt, ...(version ? { version } : {}), restoredFrom: chosen.path }
      }),
    )
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

  private writeUnlocked(agentPath: string, bytes: Uint8Array, options: WriteOptions): Promise<WriteReceipt> {
    return withAnchored(this.writable(agentPath), async (target) => {
      const receipt = await this.writeResolved(target, bytes, options)
      const version = await this.record([target], options.message ?? `write ${target.agentPath}`)
      return version ? { ...receipt, version } : receipt
    })
  }

  /**
   * Writes bytes to an anchored file: backup of the old content, then the atomic replace, all through the
   * folder `target.dir` holds open. Caller holds the lock.
   */
  private async writeResolved(
    target: WritableTarget,
    bytes: Uint8Array,
    options: WriteOptions,
  ): Promise<WriteReceipt> {
    if (target.kind === 'directory')
      throw workspaceError('CONFLICT', `${target.agentPath} is a folder, not a file.`)
    if (target.kind === 'other') throw notRegular(target.agentPath)
    const existing = target.kind === 'file' ? target.stats : undefined
    if (existing && options.overwrite === false) {
      throw workspaceError(
        'CONFLICT',
        `${target.agentPath} already exists; choose another name or allow overwrite.`,
      )
    }
    if (existing) await this.record([target], `snapshot ${target.agentPath} (changed outside Bureau)`)
    const backup =
      existing && options.backup !== false && this.backups.enabled
        ? await this.backups.backup(target).catch((error: unknown) => {
            throw fromFsError(error, `${target.agentPath} (backup)`)
          })
        : undefined
    await target.dir.verify()
    await writeFileAtomic(this.deps.writeFs, target.dir.child(target.name), bytes, {
      ...(existing ? { mode: existing.mode & 0o777 } : {}),
      beforeRename: () => target.dir.verify(),
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

  /** Looks a path up, anchored (see walkAnchored). The caller closes `dir` (withAnchored). */
  private locate(agentPath: string, options: WalkOptions = {}): Promise<Anchored> {
    const parsed = this.resolver.parse(agentPath, options)
    return walkAnchored(this.root, parsed.path, parsed.segments, options)
  }

  /** A path the caller may create or replace; missing parent folders are made on the way. */
  private async writable(agentPath: string, options: WalkOptions = {}): Promise<WritableTarget> {
    const parsed = this.resolver.parse(agentPath)
    if (parsed.path === '/') refuse('root-not-allowed', 'the workspace root itself cannot be changed.')
    const target = await this.locate(agentPath, { createParents: true, ...options }).catch(
      (error: unknown) => {
        throw parentError(error, parsed.path)
      },
    )
    if (target.blockedByFile || target.name === undefined) {
      await target.dir.close()
      throw workspaceError('CONFLICT', `A parent of ${parsed.path} is a file, not a folder.`)
    }
    return { ...target, name: target.name }
  }

  private async existing(agentPath: string, options: { forChange?: boolean } = {}): Promise<WritableTarget> {
    const target = await this.locate(agentPath)
    if (target.kind === 'missing') {
      await target.dir.close()
      throw workspaceError('NOT_FOUND', `${target.agentPath} does not exist.`)
    }
    if (target.name === undefined) {
      await target.dir.close()
      if (options.forChange)
        refuse('root-not-allowed', 'the workspace root itself cannot be moved or deleted.')
      throw workspaceError(
        'UNSUPPORTED',
        'the workspace root itself cannot be copied; copy its contents instead.',
      )
    }
    return { ...target, name: target.name }
  }

  /** Runs `use` with the folder `target` names, opened through its anchored parent. */
  private async inFolder<T>(target: Anchored, use: (dir: AnchoredDir) => Promise<T>): Promise<T> {
    if (target.kind === 'missing') throw workspaceError('NOT_FOUND', `${target.agentPath} does not exist.`)
    if (target.kind !== 'directory') {
      throw workspaceError('CONFLICT', `${target.agentPath} is a file, not a folder.`)
    }
    if (target.name === undefined) return use(target.dir)
    const dir = await target.dir.openChild(target.name).catch((error: unknown) => {
      throw errnoOf(error) === 'ELOOP'
        ? refuse('symlink-escape', 'a folder on the path was replaced by a symbolic link.')
        : fromFsError(error, target.agentPath)
    })
    try {
      return await use(dir)
    } finally {
      await dir.close()
    }
  }

  private typeOf(target: Anchored): EntryType {
    if (target.kind === 'directory') return 'directory'
    if (target.kind === 'file') return 'file'
    throw notRegular(target.agentPath)
  }

  /** Makes room at a move/copy destination; an overwritten file is backed up. Returns the backup path. */
  private async clearDestination(
    destination: WritableTarget,
    sourceType: EntryType,
    options: TransferOptions,
  ): Promise<string | undefined> {
    if (destination.kind === 'missing') return undefined
    const type = this.typeOf(destination)
    if (!options.overwrite || type === 'directory' || sourceType === 'directory') {
      throw workspaceError(
        'CONFLICT',
        type === 'directory' || sourceType === 'directory'
          ? `${destination.agentPath} already exists; folders are never merged or replaced. Pick a new name.`
          : `${destination.agentPath} already exists; pass overwrite to replace it (a backup is kept).`,
      )
    }
    await this.record([destination], `snapshot ${destination.agentPath} before overwrite`)
    return this.backups.enabled ? this.backups.backup(destination) : undefined
  }

  /** Commits the given paths to the history; a history failure never fails the write itself. */
  private async record(targets: readonly Anchored[], message: string): Promise<string | undefined> {
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

/** An anchored target with a final name (never the root). */
type WritableTarget = Anchored & { readonly name: string }

function parentError(error: unknown, agentPath: string): unknown {
  const errno = errnoOf(error)
  return errno === 'EEXIST' || errno === 'ENOTDIR'
    ? workspaceError('CONFLICT', `A parent of ${agentPath} is a file, not a folder.`)
    : fromFsError(error, agentPath)
}

function nameOf(agentPath: string): string {
  return agentPath === '/' ? '/' : agentPath.slice(agentPath.lastIndexOf('/') + 1)
}

function checkNotInside(source: string, destination: string): void {
  const prefix = source === '/' ? '/' : `${source}/`
  if (destination === source || destination.startsWith(prefix)) {
    throw workspaceError('CONFLICT', `Cannot put ${source} inside itself (${destination}).`)
  }
}
