import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { KnowledgeStatus } from '../../../shared/ipc'
import type { KnowledgeSettings } from '../../../shared/settings'
import type { Converter } from '../../convert'
import type { Workspace, WorkspaceChanged } from '../../workspace'
import type { Embedder } from '../embeddings/embedder'
import { type FileProblem, KnowledgeIndex, type SyncReport } from '../indexer/knowledgeIndex'
import { type SearchOutcome, searchIndex } from '../search/searchIndex'

export interface KnowledgeServiceOptions {
  readonly dataDir: string
  readonly workspace: () => Workspace
  readonly converter: Pick<Converter, 'convert'>
  readonly settings: () => KnowledgeSettings
  /** The embedding source of the settings (undefined: BM25 only). */
  readonly embedder: () => Promise<Embedder | undefined>
  /** `--no-index`: never index in the background (searches still read what is on disk). */
  readonly disabled?: boolean
  /** Searches first bring the index up to date (one-shot CLI commands); the app never waits. */
  readonly syncBeforeSearch?: boolean
  readonly onStatus?: (status: KnowledgeStatus) => void
  readonly onWarning?: (message: string) => void
  /** Where a folder's index lives; default `<data-dir>/index/<workspace-id>`. */
  readonly indexDir?: (root: string) => string
}

export interface KnowledgeSearchRequest {
  readonly query: string
  readonly topK: number
  readonly pathGlob?: string | undefined
  readonly signal?: AbortSignal
}

export interface KnowledgeService {
  /** Queues a full scan in the background (after start-up: it never blocks it). */
  start(): void
  onWorkspaceChange(event: WorkspaceChanged): void
  /** Indexes what changed (everything, or the given paths) and returns when done. */
  build(paths?: readonly string[], signal?: AbortSignal): Promise<SyncReport>
  /** Drops the index of a path (or all) and indexes it again. */
  reindex(path?: string): Promise<SyncReport>
  /** `synced`: the search brought the index up to date first (the on-demand CLI and eval services). */
  search(
    request: KnowledgeSearchRequest,
  ): Promise<SearchOutcome & { status: KnowledgeStatus; synced: boolean }>
  status(): Promise<KnowledgeStatus>
  pause(): void
  resume(): void
  /** While a chat runs, indexing waits `chatThrottleMs` between files. */
  setChatActive(active: boolean): void
  /** The converted Markdown of a file (for the citation preview), from the converter's cache when possible. */
  markdownOf(path: string): Promise<{ markdown: string; format: string }>
  close(): Promise<void>
}

/** The workspace id in `<data-dir>/index/<id>`: a digest of the folder's real path. */
export function workspaceIndexId(root: string): string {
  return createHash('sha256').update(root).digest('hex').slice(0, 16)
}

export function createKnowledgeService(options: KnowledgeServiceOptions): KnowledgeService {
  return new BackgroundKnowledge(options)
}

const MAX_ERRORS = 100
const ALL = Symbol('all')

class BackgroundKnowledge implements KnowledgeService {
  private index: Promise<KnowledgeIndex> | undefined
  private indexRoot: string | undefined
  private readonly queue = new Set<string | typeof ALL>()
  private running: Promise<void> | undefined
  private paused = false
  private resumed: { promise: Promise<void>; resolve: () => void } | undefined
  private chatActive = false
  private progress: { done: number; total: number; current?: string | undefined } = { done: 0, total: 0 }
  private readonly errors = new Map<string, string>()
  private embeddingError: string | undefined
  private truncated = false
  private failure: string | undefined
  private closed = false
  private readonly controller = new AbortController()

  constructor(private readonly options: KnowledgeServiceOptions) {}

  private get enabled(): boolean {
    return !this.options.disabled && this.options.settings().enabled
  }

  start(): void {
    if (!this.enabled) return
    // After the current turn of the event loop: whatever started the app finishes first.
    setTimeout(() => this.enqueue(ALL), 0).unref?.()
  }

  onWorkspaceChange(event: WorkspaceChanged): void {
    if (!this.enabled) return
    for (const change of event.changes) this.enqueue(change.path)
  }

  private enqueue(item: string | typeof ALL): void {
    if (this.closed) return
    this.queue.add(item)
    this.running ??= this.drain().finally(() => {
      this.running = undefined
      void this.publish()
    })
  }

  private async drain(): Promise<void> {
    while (this.queue.size > 0 && !this.closed) {
      const all = this.queue.has(ALL)
      const paths = all ? undefined : ([...this.queue] as string[])
      this.queue.clear()
      try {
        await this.run(paths)
      } catch (error) {
        if (this.closed) return
        this.failure = messageOf(error)
        this.options.onWarning?.(`Indexing failed: ${this.failure}`)
      }
    }
  }

  private async run(paths: readonly string[] | undefined, signal?: AbortSignal): Promise<SyncReport> {
    const index = await this.openIndex()
    this.failure = undefined
    const report = await index.sync(paths, {
      signal: signal ? AbortSignal.any([signal, this.controller.signal]) : this.controller.signal,
      beforeFile: () => this.beforeFile(),
      onProgress: (progress) => {
        this.progress = progress
        void this.publish()
      },
    })
    this.record(report, paths)
    this.progress = { done: report.scanned, total: report.scanned }
    return report
  }

  private record(report: SyncReport, paths: readonly string[] | undefined): void {
    if (!paths) this.errors.clear()
    for (const path of paths ?? []) this.errors.delete(path)
    for (const problem of report.errors) this.errors.set(problem.path, problem.message)
    while (this.errors.size > MAX_ERRORS) this.errors.delete(this.errors.keys().next().value!)
    this.embeddingError = report.embeddingError
    if (!paths) this.truncated = report.truncated
  }

  private async beforeFile(): Promise<void> {
    while (this.paused && !this.closed) {
      this.resumed ??= resolvable()
      await this.resumed.promise
    }
    if (this.chatActive) await sleep(this.options.settings().chatThrottleMs)
    // Let requests and UI events through between files.
    else await new Promise((resolve) => setImmediate(resolve))
  }

  private openIndex(): Promise<KnowledgeIndex> {
    const workspace = this.options.workspace()
    if (this.index && this.indexRoot === workspace.root) return this.index
    const previous = this.index
    this.indexRoot = workspace.root
    this.index = (async () => {
      if (previous) (await previous.catch(() => undefined))?.close()
      const index = await KnowledgeIndex.open({
        dir:
          this.options.indexDir?.(workspace.root) ??
          join(this.options.dataDir, 'index', workspaceIndexId(workspace.root)),
        workspace,
        converter: this.options.converter,
        limits: () => {
          const settings = this.options.settings()
          return {
            maxFileBytes: settings.maxFileBytes,
            maxFiles: settings.maxFiles,
            images: settings.indexImages,
          }
        },
        embedder: this.options.embedder,
      })
      if (index.rebuiltBecause)
        this.options.onWarning?.(`The knowledge index was rebuilt: ${index.rebuiltBecause}.`)
      return index
    })()
    this.index.catch(() => {
      this.index = undefined
    })
    return this.index
  }

  async build(paths?: readonly string[], signal?: AbortSignal): Promise<SyncReport> {
    await this.running
    return this.run(paths, signal)
  }

  async reindex(path?: string): Promise<SyncReport> {
    await this.running
    const index = await this.openIndex()
    if (path === undefined) await index.clear()
    else await index.forgetPath(path)
    return this.run(path === undefined ? undefined : [path])
  }

  async search(request: KnowledgeSearchRequest) {
    const synced = this.options.syncBeforeSearch === true
    if (synced) await this.build(undefined, request.signal)
    else if (this.enabled && !(await this.openIndex()).lastBuild && !this.running) this.enqueue(ALL)
    const index = await this.openIndex()
    const outcome = await searchIndex(index, request)
    return { ...outcome, status: await this.status(), synced }
  }

  async status(): Promise<KnowledgeStatus> {
    const index = await this.openIndex().catch((error: unknown) => {
      this.failure = messageOf(error)
      return undefined
    })
    const files = index ? Object.values(index.files) : []
    const embedder = index ? await index.embedderNow().catch(() => undefined) : undefined
    return {
      state: this.state(),
      done: this.progress.done,
      total: this.progress.total,
      ...(this.running && this.progress.current ? { current: this.progress.current } : {}),
      files: files.filter((file) => !file.error).length,
      passages: files.reduce((sum, file) => sum + file.chunks, 0),
      queued: this.queue.size,
      mode: embedder && index?.embeddingId === embedder.id ? 'hybrid' : 'bm25',
      errors: errorList(index ? index.files : {}, this.errors),
      ...(index?.lastBuild ? { lastBuild: index.lastBuild } : {}),
      ...(this.embeddingError ? { embeddingError: this.embeddingError } : {}),
      ...(index?.rebuiltBecause ? { rebuiltBecause: index.rebuiltBecause } : {}),
      truncated: this.truncated,
      throttled: this.chatActive && Boolean(this.running),
      ...(this.failure ? { message: this.failure } : {}),
    }
  }

  private state(): KnowledgeStatus['state'] {
    if (this.failure) return 'failed'
    if (this.paused) return 'paused'
    if (this.running) return 'indexing'
    return this.enabled ? 'idle' : 'off'
  }

  private async publish(): Promise<void> {
    if (this.options.onStatus) this.options.onStatus(await this.status())
  }

  pause(): void {
    this.paused = true
    void this.publish()
  }

  resume(): void {
    this.paused = false
    this.resumed?.resolve()
    this.resumed = undefined
    void this.publish()
  }

  setChatActive(active: boolean): void {
    this.chatActive = active
  }

  async markdownOf(path: string): Promise<{ markdown: string; format: string }> {
    const workspace = this.options.workspace()
    const bytes = await workspace.readFile(path, { maxBytes: this.options.settings().maxFileBytes })
    const result = await this.options.converter.convert(
      { name: path.slice(path.lastIndexOf('/') + 1), bytes },
      { maxChars: 4_000_000 },
    )
    return { markdown: result.markdown, format: result.format }
  }

  async close(): Promise<void> {
    this.closed = true
    this.controller.abort()
    this.resume()
    await this.running?.catch(() => undefined)
    ;(await this.index?.catch(() => undefined))?.close()
  }
}

function errorList(
  files: Readonly<Record<string, { error?: string | undefined }>>,
  recent: Map<string, string>,
): FileProblem[] {
  const out = new Map(recent)
  for (const [path, file] of Object.entries(files))
    if (file.error && !out.has(path)) out.set(path, file.error)
  return [...out].slice(0, MAX_ERRORS).map(([path, message]) => ({ path, message }))
}

function resolvable(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {}
  const promise = new Promise<void>((done) => {
    resolve = done
  })
  return { promise, resolve }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error)
}
