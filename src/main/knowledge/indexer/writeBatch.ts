import type { ChunkRow } from '../store/chunkStore'
import type { FileEntry } from '../store/manifest'

/** Files per LanceDB write: one delete and one add per batch instead of per file (each write is a new table version). */
const BATCH_FILES = 200
const BATCH_ROWS = 20_000

export interface StagedFile {
  readonly path: string
  readonly entry: FileEntry
  readonly rows: ChunkRow[]
}

/** What a sync has prepared but not yet written: the manifest changes only with the write that backs them. */
export class WriteBatch {
  /**
   * Paths whose stored rows must go: every path staged, known to the manifest or not, so rows written
   * before a crash that lost the manifest's update are not kept twice.
   */
  readonly deletes = new Set<string>()
  /** Paths that leave the manifest (deleted or vanished files). */
  readonly forgotten = new Set<string>()
  readonly failed = new Map<string, FileEntry>()
  readonly files: StagedFile[] = []
  private rowCount = 0

  get full(): boolean {
    return (
      this.files.length + this.failed.size >= BATCH_FILES ||
      this.rowCount >= BATCH_ROWS ||
      this.forgotten.size >= BATCH_FILES
    )
  }

  get empty(): boolean {
    return (
      this.deletes.size === 0 &&
      this.forgotten.size === 0 &&
      this.failed.size === 0 &&
      this.files.length === 0
    )
  }

  stage(file: StagedFile): void {
    this.deletes.add(file.path)
    this.files.push(file)
    this.rowCount += file.rows.length
  }

  fail(path: string, entry: FileEntry): void {
    this.deletes.add(path)
    this.failed.set(path, entry)
  }

  forget(path: string): void {
    this.deletes.add(path)
    this.forgotten.add(path)
  }

  /** Hands over what is staged and starts empty, so files prepared during a write go to the next one. */
  take(): WriteBatch {
    const taken = new WriteBatch()
    for (const path of this.deletes) taken.deletes.add(path)
    for (const path of this.forgotten) taken.forgotten.add(path)
    for (const [path, entry] of this.failed) taken.failed.set(path, entry)
    taken.files.push(...this.files)
    taken.rowCount = this.rowCount
    this.deletes.clear()
    this.forgotten.clear()
    this.failed.clear()
    this.files.length = 0
    this.rowCount = 0
    return taken
  }

  rows(): ChunkRow[] {
    return this.files.flatMap((file) => file.rows)
  }
}
