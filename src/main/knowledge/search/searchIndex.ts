import { compileGlob } from '../../workspace'
import { Anchor, anchorLabel } from '../chunking/anchor'
import type { KnowledgeIndex } from '../indexer/knowledgeIndex'
import type { ChunkRow } from '../store/chunkStore'

export interface SearchOptions {
  readonly query: string
  readonly topK: number
  readonly pathGlob?: string | undefined
  readonly signal?: AbortSignal
}

export interface Passage {
  readonly path: string
  readonly anchor: Anchor
  /** The anchor as one line (`Page 3 › Results`). */
  readonly location: string
  readonly score: number
  readonly text: string
  /** Offsets of the passage in the converted Markdown, for the preview. */
  readonly start: number
  readonly end: number
}

export interface SearchOutcome {
  readonly mode: 'bm25' | 'hybrid'
  readonly passages: Passage[]
  /** Why vectors were not used although an embedding source is configured. */
  readonly warning?: string
}

const SNIPPET_CHARS = 600
/** Reciprocal-rank fusion constant (the usual 60): ranks matter, raw BM25 and cosine scores are not comparable. */
const RRF_K = 60

/** BM25 over the passages, fused with vector similarity when the index has vectors of the embedder in effect. */
export async function searchIndex(index: KnowledgeIndex, options: SearchOptions): Promise<SearchOutcome> {
  const matches = options.pathGlob ? globFilter(options.pathGlob) : () => true
  const pool = options.pathGlob ? 400 : Math.max(options.topK * 4, 40)
  const store = index.chunkStore
  const text = (await store.fullText(ftsQuery(options.query), pool)).filter((row) => matches(row.path))
  const vectors = await vectorHits(index, options, pool)
  if (vectors.kind !== 'ok') {
    const passages = text.slice(0, options.topK).map((row) => toPassage(row, row.score))
    return { mode: 'bm25', passages, ...(vectors.kind === 'failed' ? { warning: vectors.warning } : {}) }
  }
  const fused = new Map<string, number>()
  const add = (id: string, rank: number) => {
    fused.set(id, (fused.get(id) ?? 0) + 1 / (RRF_K + rank + 1))
  }
  for (const [rank, row] of text.entries()) add(row.id, rank)
  for (const [rank, hit] of vectors.hits.entries()) add(hit.id, rank)
  const byId = new Map<string, ChunkRow>(text.map((row) => [row.id, row]))
  const missing = vectors.hits.map((hit) => hit.id).filter((id) => !byId.has(id))
  for (const row of await store.chunksById(missing)) byId.set(row.id, row)
  const ranked = [...fused]
    .map(([id, score]) => ({ row: byId.get(id), score }))
    .filter(
      (item): item is { row: ChunkRow; score: number } => item.row !== undefined && matches(item.row.path),
    )
    .sort((a, b) => b.score - a.score)
    .slice(0, options.topK)
  return { mode: 'hybrid', passages: ranked.map((item) => toPassage(item.row, item.score)) }
}

/** Words only: the full-text parser must never see operators or quotes from a user's question. */
function ftsQuery(query: string): string {
  return (query.match(/[\p{L}\p{N}]+/gu) ?? []).join(' ')
}

type VectorHits =
  | { kind: 'ok'; hits: { id: string; score: number }[] }
  | { kind: 'none' }
  | { kind: 'failed'; warning: string }

async function vectorHits(index: KnowledgeIndex, options: SearchOptions, pool: number): Promise<VectorHits> {
  let embedder: Awaited<ReturnType<KnowledgeIndex['embedderNow']>>
  try {
    embedder = await index.embedderNow()
  } catch (error) {
    return { kind: 'failed', warning: `Vectors not used: ${messageOf(error)}` }
  }
  if (!embedder) return { kind: 'none' }
  if (index.embeddingId !== embedder.id)
    return {
      kind: 'failed',
      warning: 'Vectors not used: the passages have no vectors of this embedding model yet.',
    }
  try {
    const [vector] = await embedder.embed([options.query], options.signal)
    if (!vector) return { kind: 'none' }
    return { kind: 'ok', hits: await index.chunkStore.nearest(vector, pool) }
  } catch (error) {
    return { kind: 'failed', warning: `Vectors not used: ${messageOf(error)}` }
  }
}

function toPassage(row: ChunkRow, score: number): Passage {
  const anchor = Anchor.parse(JSON.parse(row.anchor))
  const text = row.text.length > SNIPPET_CHARS ? `${row.text.slice(0, SNIPPET_CHARS)}…` : row.text
  return {
    path: row.path,
    anchor,
    location: anchorLabel(anchor),
    score: Math.round(score * 10_000) / 10_000,
    text,
    start: row.start,
    end: row.end,
  }
}

function globFilter(pattern: string): (path: string) => boolean {
  const glob = compileGlob(pattern.startsWith('/') ? pattern.slice(1) : pattern)
  const nameOnly = !pattern.includes('/')
  return (path) => glob(nameOnly ? path.slice(path.lastIndexOf('/') + 1) : path.slice(1))
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
