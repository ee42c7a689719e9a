import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Converter } from '../../convert'
import type { Workspace } from '../../workspace'
import type { Embedder } from '../embeddings/embedder'
import { type ChunkRow, ChunkStore } from '../store/chunkStore'
import { emptyManifest, type FileEntry, type Manifest, readManifest, writeManifest } from '../store/manifest'
import { isIndexable } from './indexable'
import { firstLine, type IndexLimits, type Prepared, prepareFile } from './prepareFile'
import { WriteBatch } from './writeBatch'

export interface KnowledgeIndexOptions {
  /** `<data-dir>/index/<workspace-id>`. */
  readonly dir: string
  readonly workspace: Workspace
  readonly converter: Pick<Converter, 'convert'>
  readonly limits: () => IndexLimits
  /** The embedding source in effect, or undefined for BM25 only. Asked at each sync and search. */
  readonly embedder?: () => Promise<Embedder | undefined>
}

export interface SyncHooks {
  readonly signal?: AbortSignal
  /** Awaited before each file: the service pauses and throttles here. */
  readonly beforeFile?: (path: string) => Promise<void>
  readonly onProgress?: (progress: SyncProgress) => void
}

export interface SyncProgress {
  readonly done: number
  readonly total: number
  readonly current?: string
}

export interface FileProblem {
  readonly path: string
  readonly message: string
}

interface SyncCounts {
  indexed: number
  unchanged: number
  removed: number
  errors: FileProblem[]
}

export interface SyncReport {
  readonly scanned: number
  readonly indexed: number
  readonly unchanged: number
  readonly removed: number
  readonly errors: FileProblem[]
  /** The workspace had more files than `maxFiles`: the rest were left out. */
  readonly truncated: boolean
  readonly embeddingError?: string
}

/**
 * Files asked for at once: the converter's pool runs as many as it has workers (one on 2 cores), and a
 * second request waiting in its queue keeps the worker busy while this thread chunks and writes.
 */
const CONVERSIONS = 2
/** Changed files after which a sync folds new rows into the full-text index and compacts the tables. */
const OPTIMIZE_AFTER = 50
/** Files whose missing vectors are read and embedded in one go. */
const EMBED_GROUP = 200

interface SyncState {
  embeddingError?: string
}

/**
 * One workspace's index on disk: the manifest (hash per file) and the LanceDB tables. An index that
 * cannot be trusted (unreadable, older format, another folder, damaged tables) is deleted and rebuilt.
 */
export class KnowledgeIndex {
  private constructor(
    private readonly options: KnowledgeIndexOptions,
    private store: ChunkStore,
    private manifest: Manifest,
    /** Why the index on disk was discarded when it was opened. */
    readonly rebuiltBecause: string | undefined,
  ) {}

  static async open(options: KnowledgeIndexOptions): Promise<KnowledgeIndex> {
    const root = options.workspace.root
    const read = await readManifest(options.dir, root)
    let reason = read && !read.ok ? read.reason : undefined
    if (!read) reason = await discardOrphanTables(options.dir)
    if (reason) await wipe(options.dir)
    let store: ChunkStore
    try {
      store = await ChunkStore.open(lanceDir(options.dir))
    } catch (error) {
      reason = `the index tables are damaged (${firstLine(error)})`
      await wipe(options.dir)
      store = await ChunkStore.open(lanceDir(options.dir))
    }
    const manifest = read?.ok && !reason ? read.manifest : emptyManifest(root)
    const index = new KnowledgeIndex(options, store, manifest, reason)
    await index.checkVectors()
    return index
  }

  get files(): Readonly<Record<string, FileEntry>> {
    return this.manifest.files
  }

  get embeddingId(): string | undefined {
    return this.manifest.embedding?.id
  }

  get lastBuild(): string | undefined {
    return this.manifest.lastBuild
  }

  /** Drops one path (or folder) from the index so the next sync converts it again. */
  async forgetPath(path: string): Promise<void> {
    const known = this.knownUnder(path)
    await this.store.removeFiles(known)
    for (const file of known) delete this.manifest.files[file]
    await this.save()
  }

  get chunkStore(): ChunkStore {
    return this.store
  }

  /**
   * Brings the index up to date with the whole workspace, or with the given paths (files or folders).
   * Files are converted two at a time and written in batches: one delete and one add per batch.
   */
  async sync(paths: readonly string[] | undefined, hooks: SyncHooks = {}): Promise<SyncReport> {
    const limits = this.options.limits()
    const plan = paths ? await this.planPaths(paths, limits) : await this.planAll(limits)
    const total = plan.files.length
    const report = { scanned: total, indexed: 0, unchanged: 0, removed: 0, errors: [] as FileProblem[] }
    const embedder = await this.embedderNow()
    const state: SyncState = {}
    const batch = new WriteBatch()
    let writing = Promise.resolve()
    const flush = () => {
      const taken = batch.take()
      writing = writing.then(() => this.write(taken, embedder, state, hooks.signal))
      return writing
    }
    for (const path of plan.removed) {
      batch.forget(path)
      report.removed++
    }
    const queue = [...plan.files]
    let done = 0
    let failure: unknown
    // The second conversion waits for the first: two workers starting cold at once can overrun a deadline.
    let warmed = () => {}
    const warm = new Promise<void>((resolve) => {
      warmed = resolve
    })
    const convertNext = async (lane: number) => {
      try {
        if (lane > 0) await warm
        for (let path = queue.shift(); path !== undefined && failure === undefined; path = queue.shift()) {
          hooks.signal?.throwIfAborted()
          hooks.onProgress?.({ done, total, current: path })
          await hooks.beforeFile?.(path)
          const prepared = await prepareFile(path, this.manifest.files[path], {
            workspace: this.options.workspace,
            converter: this.options.converter,
            limits,
            signal: hooks.signal,
          })
          warmed()
          this.stage(batch, path, prepared, report)
          done++
          if (batch.full) await flush()
        }
      } catch (error) {
        failure ??= error
      } finally {
        warmed()
      }
    }
    await Promise.all(Array.from({ length: CONVERSIONS }, (_, lane) => convertNext(lane)))
    await flush()
    if (failure !== undefined) throw failure
    if (embedder && !state.embeddingError)
      state.embeddingError = await this.embedMissing(embedder, hooks.signal)
    hooks.onProgress?.({ done, total })
    if ((this.manifest.unoptimized ?? 0) >= OPTIMIZE_AFTER) {
      await this.store.optimize()
      this.manifest.unoptimized = 0
    }
    this.manifest.lastBuild = new Date().toISOString()
    await this.save()
    const { embeddingError } = state
    return { ...report, truncated: plan.truncated, ...(embeddingError ? { embeddingError } : {}) }
  }

  private stage(batch: WriteBatch, path: string, prepared: Prepared, report: SyncCounts): void {
    if (prepared.kind === 'unchanged') {
      if (prepared.entry) this.manifest.files[path] = prepared.entry
      report.unchanged++
    } else if (prepared.kind === 'gone') {
      if (this.manifest.files[path]) batch.forget(path)
      report.removed++
    } else if (prepared.kind === 'failed') {
      batch.fail(path, prepared.entry)
      report.errors.push({ path, message: prepared.message })
    } else {
      batch.stage({ path, entry: prepared.entry, rows: prepared.rows })
      report.indexed++
    }
  }

  /** One store write for the batch, then the manifest entries it backs (and their vectors). */
  private async write(
    batch: WriteBatch,
    embedder: Embedder | undefined,
    state: SyncState,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (batch.empty) return
    const rows = batch.rows()
    await this.store.write([...batch.deletes], rows)
    for (const path of batch.forgotten) delete this.manifest.files[path]
    for (const [path, entry] of batch.failed) this.manifest.files[path] = entry
    for (const file of batch.files) this.manifest.files[file.path] = file.entry
    this.manifest.unoptimized = (this.manifest.unoptimized ?? 0) + batch.deletes.size
    if (embedder && !state.embeddingError) state.embeddingError = await this.embedRows(rows, embedder, signal)
    await this.save()
  }

  private async planAll(
    limits: IndexLimits,
  ): Promise<{ files: string[]; removed: string[]; truncated: boolean }> {
    const listing = await this.options.workspace.list('/', { recursive: true, limit: 1_000_000 })
    const all = listing.entries
      .filter((entry) => entry.type === 'file' && isIndexable(entry.path, limits.images))
      .map((entry) => entry.path)
    const files = all.slice(0, limits.maxFiles)
    const present = new Set(files)
    const removed = Object.keys(this.manifest.files).filter((path) => !present.has(path))
    return { files, removed, truncated: listing.truncated || all.length > files.length }
  }

  private async planPaths(
    paths: readonly string[],
    limits: IndexLimits,
  ): Promise<{ files: string[]; removed: string[]; truncated: boolean }> {
    const files = new Set<string>()
    const removed = new Set<string>()
    let truncated = false
    for (const path of paths) {
      const stat = await this.options.workspace.stat(path).catch(() => undefined)
      if (stat?.type === 'directory') {
        const listing = await this.options.workspace.list(path, { recursive: true, limit: 1_000_000 })
        truncated ||= listing.truncated
        const present = new Set<string>()
        for (const entry of listing.entries)
          if (entry.type === 'file' && isIndexable(entry.path, limits.images)) present.add(entry.path)
        for (const known of this.knownUnder(path)) if (!present.has(known)) removed.add(known)
        for (const file of present) files.add(file)
      } else if (stat?.type === 'file') {
        if (isIndexable(path, limits.images)) files.add(path)
      } else {
        for (const known of this.knownUnder(path)) removed.add(known)
      }
    }
    return { files: [...files], removed: [...removed], truncated }
  }

  private knownUnder(path: string): string[] {
    const prefix = path.endsWith('/') ? path : `${path}/`
    return Object.keys(this.manifest.files).filter((known) => known === path || known.startsWith(prefix))
  }

  /** Stores the vectors of these chunks; returns the endpoint's error, after which a sync stops embedding. */
  private async embedRows(
    rows: readonly ChunkRow[],
    embedder: Embedder,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    if (rows.length === 0) return undefined
    let vectors: number[][]
    try {
      vectors = await embedder.embed(
        rows.map((row) => row.search),
        signal,
      )
    } catch (error) {
      signal?.throwIfAborted()
      return firstLine(error)
    }
    const dimensions = vectors[0]?.length ?? 0
    const known = this.manifest.embedding
    if (known && (known.id !== embedder.id || known.dimensions !== dimensions)) await this.resetVectors()
    this.manifest.embedding = { id: embedder.id, dimensions }
    await this.store.addVectors(
      rows.map((row, index) => ({ id: row.id, path: row.path, vector: vectors[index]! })),
    )
    for (const path of new Set(rows.map((row) => row.path))) {
      const entry = this.manifest.files[path]
      if (entry) this.manifest.files[path] = { ...entry, embedded: true }
    }
    return undefined
  }

  private async embedMissing(embedder: Embedder, signal?: AbortSignal): Promise<string | undefined> {
    if (this.manifest.embedding && this.manifest.embedding.id !== embedder.id) await this.resetVectors()
    const missing = Object.entries(this.manifest.files)
      .filter(([, entry]) => !entry.embedded && !entry.error && entry.chunks > 0)
      .map(([path]) => path)
    for (let index = 0; index < missing.length; index += EMBED_GROUP) {
      const rows = await this.store.chunksOfFiles(missing.slice(index, index + EMBED_GROUP))
      const error = await this.embedRows(rows, embedder, signal)
      if (error) return error
      await this.save()
    }
    return undefined
  }

  /** Vectors of another model or dimension are never mixed: all are dropped and made again. */
  private async resetVectors(): Promise<void> {
    await this.store.dropVectors()
    delete this.manifest.embedding
    for (const [path, entry] of Object.entries(this.manifest.files))
      this.manifest.files[path] = { ...entry, embedded: false }
  }

  private async checkVectors(): Promise<void> {
    const dimensions = await this.store.vectorDimensions()
    if (dimensions !== this.manifest.embedding?.dimensions) await this.resetVectors()
  }

  async embedderNow(): Promise<Embedder | undefined> {
    return this.options.embedder ? await this.options.embedder() : undefined
  }

  async save(): Promise<void> {
    await writeManifest(this.options.dir, this.manifest)
  }

  /** Deletes everything and starts from an empty index (`reindex` of the whole workspace). */
  async clear(): Promise<void> {
    this.store.close()
    await wipe(this.options.dir)
    this.store = await ChunkStore.open(lanceDir(this.options.dir))
    this.manifest = emptyManifest(this.options.workspace.root)
    await this.save()
  }

  close(): void {
    this.store.close()
  }
}

function lanceDir(dir: string): string {
  return join(dir, 'lance')
}

async function wipe(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true })
}

/** Tables without a manifest cannot be matched to files: an index interrupted before its first save. */
async function discardOrphanTables(dir: string): Promise<string | undefined> {
  const { readdir } = await import('node:fs/promises')
  const names = await readdir(lanceDir(dir)).catch(() => [])
  return names.length > 0 ? 'the index has no manifest' : undefined
}
