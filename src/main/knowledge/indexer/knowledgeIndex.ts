import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Converter } from '../../convert'
import type { Workspace } from '../../workspace'
import type { Embedder } from '../embeddings/embedder'
import { ChunkStore } from '../store/chunkStore'
import { emptyManifest, type FileEntry, type Manifest, readManifest, writeManifest } from '../store/manifest'
import { fileChunkRows, sha256 } from './fileChunks'
import { isIndexable } from './indexable'

export interface IndexLimits {
  readonly maxFileBytes: number
  readonly maxFiles: number
  readonly images: boolean
}

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

const CONVERT_MAX_CHARS = 4_000_000

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
    for (const known of this.knownUnder(path)) await this.forget(known)
    await this.save()
  }

  get chunkStore(): ChunkStore {
    return this.store
  }

  /** Brings the index up to date with the whole workspace, or with the given paths (files or folders). */
  async sync(paths: readonly string[] | undefined, hooks: SyncHooks = {}): Promise<SyncReport> {
    const limits = this.options.limits()
    const plan = paths ? await this.planPaths(paths, limits) : await this.planAll(limits)
    const report = {
      scanned: plan.files.length,
      indexed: 0,
      unchanged: 0,
      removed: 0,
      errors: [] as FileProblem[],
    }
    for (const path of plan.removed) {
      await this.store.removeFile(path)
      delete this.manifest.files[path]
      report.removed++
    }
    const embedder = await this.embedderNow()
    let embeddingError: string | undefined
    let done = 0
    for (const path of plan.files) {
      hooks.signal?.throwIfAborted()
      hooks.onProgress?.({ done, total: plan.files.length, current: path })
      await hooks.beforeFile?.(path)
      const outcome = await this.indexFile(path, limits, hooks.signal)
      if (outcome === 'unchanged') report.unchanged++
      else if (outcome === 'indexed') report.indexed++
      else if (outcome !== 'gone') report.errors.push({ path, message: outcome.error })
      if (outcome === 'gone') report.removed++
      if (embedder && !embeddingError && this.manifest.files[path]?.embedded === false)
        embeddingError = await this.embedFile(path, embedder, hooks.signal)
      done++
      if (done % 50 === 0) await this.save()
    }
    if (embedder && !embeddingError) embeddingError = await this.embedMissing(embedder, hooks.signal)
    hooks.onProgress?.({ done, total: plan.files.length })
    await this.store.optimize()
    this.manifest.lastBuild = new Date().toISOString()
    await this.save()
    return { ...report, truncated: plan.truncated, ...(embeddingError ? { embeddingError } : {}) }
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

  private async indexFile(
    path: string,
    limits: IndexLimits,
    signal?: AbortSignal,
  ): Promise<'indexed' | 'unchanged' | 'gone' | { error: string }> {
    const previous = this.manifest.files[path]
    let stat: Awaited<ReturnType<Workspace['stat']>>
    try {
      stat = await this.options.workspace.stat(path)
    } catch {
      return this.forget(path)
    }
    const mtimeMs = Date.parse(stat.modified)
    const size = stat.size ?? 0
    if (previous && previous.size === size && previous.mtimeMs === mtimeMs && !previous.error)
      return 'unchanged'
    if (size > limits.maxFileBytes)
      return this.failed(
        path,
        { size, mtimeMs, hash: '' },
        `too large to index (${size} bytes; the limit is ${limits.maxFileBytes})`,
      )
    let bytes: Buffer
    try {
      bytes = await this.options.workspace.readFile(path, { maxBytes: limits.maxFileBytes })
    } catch (error) {
      if (!(await this.options.workspace.exists(path).catch(() => false))) return this.forget(path)
      return this.failed(path, { size, mtimeMs, hash: '' }, firstLine(error))
    }
    const hash = sha256(bytes)
    if (previous && previous.hash === hash && !previous.error) {
      this.manifest.files[path] = { ...previous, size, mtimeMs }
      return 'unchanged'
    }
    try {
      const name = path.slice(path.lastIndexOf('/') + 1)
      const result = await this.options.converter.convert(
        { name, bytes },
        { maxChars: CONVERT_MAX_CHARS, ...(signal ? { signal } : {}) },
      )
      const rows = fileChunkRows(path, result.markdown, result.format)
      await this.store.replaceFile(path, rows)
      this.manifest.files[path] = {
        hash,
        size,
        mtimeMs,
        format: result.format,
        chunks: rows.length,
        embedded: false,
      }
      return 'indexed'
    } catch (error) {
      signal?.throwIfAborted()
      return this.failed(path, { size, mtimeMs, hash }, firstLine(error))
    }
  }

  private async forget(path: string): Promise<'gone'> {
    await this.store.removeFile(path)
    delete this.manifest.files[path]
    return 'gone'
  }

  private async failed(
    path: string,
    file: { size: number; mtimeMs: number; hash: string },
    message: string,
  ): Promise<{ error: string }> {
    await this.store.removeFile(path)
    this.manifest.files[path] = { ...file, chunks: 0, embedded: false, error: message }
    return { error: message }
  }

  /** Stores the vectors of one file's chunks; returns the endpoint's error, after which a sync stops embedding. */
  private async embedFile(
    path: string,
    embedder: Embedder,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    const entry = this.manifest.files[path]
    if (!entry || entry.error || entry.chunks === 0) return undefined
    const rows = await this.store.chunksOfFile(path)
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
    this.manifest.files[path] = { ...entry, embedded: true }
    return undefined
  }

  private async embedMissing(embedder: Embedder, signal?: AbortSignal): Promise<string | undefined> {
    if (this.manifest.embedding && this.manifest.embedding.id !== embedder.id) await this.resetVectors()
    for (const [path, entry] of Object.entries(this.manifest.files)) {
      if (entry.embedded || entry.error || entry.chunks === 0) continue
      const error = await this.embedFile(path, embedder, signal)
      if (error) return error
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

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.split('\n')[0]!.slice(0, 300)
}
