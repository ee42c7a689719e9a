import { mkdir } from 'node:fs/promises'
import type { Connection, Table } from '@lancedb/lancedb'
import type { Schema } from 'apache-arrow'

export interface ChunkRow {
  id: string
  path: string
  ordinal: number
  /** JSON of the Anchor. */
  anchor: string
  text: string
  /** What BM25 ranks: the file name and heading path, then the passage. */
  search: string
  start: number
  end: number
}

export interface VectorRow {
  id: string
  path: string
  vector: number[]
}

export interface RankedRow extends ChunkRow {
  score: number
}

const CHUNKS = 'chunks'
const VECTORS = 'vectors'
/** Paths per delete filter (one SQL `IN` list). */
const DELETE_GROUP = 500

// apache-arrow is loaded with LanceDB, on the first use of an index, not when Bureau starts.
async function chunkSchema(): Promise<Schema> {
  const { Field, Int32, Schema, Utf8 } = await import('apache-arrow')
  const text = (name: string) => new Field(name, new Utf8(), false)
  const int = (name: string) => new Field(name, new Int32(), false)
  return new Schema([
    text('id'),
    text('path'),
    int('ordinal'),
    text('anchor'),
    text('text'),
    text('search'),
    int('start'),
    int('end'),
  ])
}

async function vectorSchema(dimensions: number): Promise<Schema> {
  const { Field, FixedSizeList, Float32, Schema, Utf8 } = await import('apache-arrow')
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('path', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
  ])
}

/** A SQL string literal for LanceDB filters. */
function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`
}

/**
 * The LanceDB tables of one workspace index: `chunks` (text, anchors, a BM25 full-text index on
 * `search`) and `vectors` (one embedding per chunk, created with the first vectors and dropped when the
 * embedding model or its dimension changes).
 */
export class ChunkStore {
  private ftsReady = false
  private constructor(
    private readonly db: Connection,
    private readonly chunks: Table,
    private vectors: Table | undefined,
  ) {}

  static async open(dir: string): Promise<ChunkStore> {
    await mkdir(dir, { recursive: true })
    const lancedb = await import('@lancedb/lancedb')
    const db = await lancedb.connect(dir)
    const names = await db.tableNames()
    const chunks = names.includes(CHUNKS)
      ? await db.openTable(CHUNKS)
      : await db.createEmptyTable(CHUNKS, await chunkSchema(), { mode: 'create' })
    const vectors = names.includes(VECTORS) ? await db.openTable(VECTORS) : undefined
    const store = new ChunkStore(db, chunks, vectors)
    await store.check()
    return store
  }

  /** Reads the tables once so a damaged folder fails here, not in the middle of a search. */
  private async check(): Promise<void> {
    await this.chunks.countRows()
    if (this.vectors) await this.vectors.countRows()
    const indices = await this.chunks.listIndices()
    this.ftsReady = indices.some((index) => index.columns.includes('search'))
  }

  async countChunks(): Promise<number> {
    return this.chunks.countRows()
  }

  async vectorDimensions(): Promise<number | undefined> {
    if (!this.vectors) return undefined
    const field = (await this.vectors.schema()).fields.find((item) => item.name === 'vector')
    const size = (field?.type as { listSize?: unknown } | undefined)?.listSize
    return typeof size === 'number' ? size : undefined
  }

  /** One write for many files: their old rows go in one delete, the new rows come in one add. */
  async write(deletes: readonly string[], rows: ChunkRow[]): Promise<void> {
    await this.removeFiles(deletes)
    if (rows.length === 0) return
    await this.chunks.add(rows as unknown as Record<string, unknown>[])
    // Rows added later are searched unindexed until `optimize` folds them in.
    if (!this.ftsReady) await this.buildFullText()
  }

  async removeFiles(paths: readonly string[]): Promise<void> {
    for (let index = 0; index < paths.length; index += DELETE_GROUP) {
      const filter = `path IN (${paths
        .slice(index, index + DELETE_GROUP)
        .map(literal)
        .join(', ')})`
      await this.chunks.delete(filter)
      await this.vectors?.delete(filter)
    }
  }

  async addVectors(rows: VectorRow[]): Promise<void> {
    if (rows.length === 0) return
    const dimensions = rows[0]!.vector.length
    if (!this.vectors) {
      // Overwrite only what is there (a table left behind): LanceDB prints a warning on stderr when
      // asked to overwrite a table that does not exist.
      const exists = (await this.db.tableNames()).includes(VECTORS)
      this.vectors = await this.db.createEmptyTable(VECTORS, await vectorSchema(dimensions), {
        mode: exists ? 'overwrite' : 'create',
      })
    }
    await this.vectors.add(rows as unknown as Record<string, unknown>[])
  }

  async dropVectors(): Promise<void> {
    if (!this.vectors) return
    this.vectors = undefined
    await this.db.dropTable(VECTORS)
  }

  private async buildFullText(): Promise<void> {
    const { Index } = await import('@lancedb/lancedb')
    await this.chunks.createIndex('search', {
      config: Index.fts({ withPosition: false, stem: true, removeStopWords: true, asciiFolding: true }),
      replace: true,
    })
    this.ftsReady = true
  }

  /** Folds rows added since the last call into the full-text index and compacts the files. */
  async optimize(): Promise<void> {
    if ((await this.chunks.countRows()) === 0) return
    if (!this.ftsReady) await this.buildFullText()
    await this.chunks.optimize()
    await this.vectors?.optimize()
  }

  async fullText(query: string, limit: number): Promise<RankedRow[]> {
    if (!this.ftsReady) return []
    const rows = await this.chunks.search(query, 'fts', 'search').limit(limit).toArray()
    return rows.map((row) => ({ ...plainRow(row), score: Number(row._score) }))
  }

  /** Chunk ids nearest to the vector, closest first, with cosine similarity as score. */
  async nearest(vector: number[], limit: number): Promise<{ id: string; score: number }[]> {
    if (!this.vectors) return []
    const rows = await this.vectors
      .vectorSearch(vector)
      .distanceType('cosine')
      .limit(limit)
      // `_distance` named, not left to LanceDB's projection of it (deprecated, and printed on stderr).
      .select(['id', '_distance'])
      .toArray()
    return rows.map((row) => ({ id: String(row.id), score: 1 - Number(row._distance) }))
  }

  async chunksById(ids: readonly string[]): Promise<ChunkRow[]> {
    if (ids.length === 0) return []
    const rows = await this.chunks
      .query()
      .where(`id IN (${ids.map(literal).join(', ')})`)
      .toArray()
    return rows.map(plainRow)
  }

  async chunksOfFiles(paths: readonly string[]): Promise<ChunkRow[]> {
    if (paths.length === 0) return []
    const rows = await this.chunks
      .query()
      .where(`path IN (${paths.map(literal).join(', ')})`)
      .toArray()
    return rows.map(plainRow)
  }

  close(): void {
    this.chunks.close()
    this.vectors?.close()
    this.db.close()
  }
}

function plainRow(row: Record<string, unknown>): ChunkRow {
  return {
    id: String(row.id),
    path: String(row.path),
    ordinal: Number(row.ordinal),
    anchor: String(row.anchor),
    text: String(row.text),
    search: String(row.search),
    start: Number(row.start),
    end: Number(row.end),
  }
}
