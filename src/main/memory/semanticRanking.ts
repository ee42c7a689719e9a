import type { Memory } from '../../shared/memory'

/**
 * Turns texts into vectors; the knowledge service's embedders have this shape. `id` names the model and
 * endpoint: vectors of another id are never compared.
 */
export interface TextEmbedder {
  readonly id: string
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>
}

/** The embedder the settings ask for, or undefined when embeddings are off. */
export type EmbedderSource = () => Promise<TextEmbedder | undefined>

/** Only this many of the nearest memories take part: the rest are too far to matter for one request. */
const NEAREST = 50
/** Vectors kept between turns (a memory is a line: a 1,024-dimension vector is 4 KiB). */
const CACHE_LIMIT = 20_000

/**
 * Remembers each memory's vector per embedder, so a turn embeds only the request and the memories that
 * changed since the last one.
 */
export class VectorCache {
  readonly #vectors = new Map<string, Float32Array>()

  get(embedderId: string, text: string): Float32Array | undefined {
    return this.#vectors.get(`${embedderId}\n${text}`)
  }

  set(embedderId: string, text: string, vector: Float32Array): void {
    if (this.#vectors.size >= CACHE_LIMIT) {
      const oldest = this.#vectors.keys().next().value
      if (oldest !== undefined) this.#vectors.delete(oldest)
    }
    this.#vectors.set(`${embedderId}\n${text}`, vector)
  }

  get size(): number {
    return this.#vectors.size
  }
}

function unit(vector: readonly number[]): Float32Array {
  let norm = 0
  for (const value of vector) norm += value * value
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0
  return Float32Array.from(vector, (value) => value * scale)
}

function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length)
    throw new Error(`the embedder returned vectors of ${a.length} and ${b.length} dimensions`)
  let sum = 0
  for (let index = 0; index < a.length; index++) sum += (a[index] as number) * (b[index] as number)
  return sum
}

/**
 * The memories of `pool` nearest to `query` by cosine similarity, as indexes into `pool`, nearest first
 * (at most 50, and none that point away from the request).
 */
export async function nearestMemories(
  query: string,
  pool: readonly Memory[],
  embedder: TextEmbedder,
  cache: VectorCache,
  signal?: AbortSignal,
): Promise<number[]> {
  if (pool.length === 0 || !query.trim()) return []
  const missing = [...new Set(pool.map((m) => m.text).filter((text) => !cache.get(embedder.id, text)))]
  const vectors = await embedder.embed([query, ...missing], signal)
  if (vectors.length !== missing.length + 1)
    throw new Error(`the embedder returned ${vectors.length} vectors for ${missing.length + 1} texts`)
  const queryVector = unit(vectors[0] as number[])
  missing.forEach((text, index) => {
    cache.set(embedder.id, text, unit(vectors[index + 1] as number[]))
  })
  return pool
    .map((memory, index) => {
      const vector = cache.get(embedder.id, memory.text)
      return { index, score: vector ? dot(queryVector, vector) : 0 }
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, NEAREST)
    .map((entry) => entry.index)
}

/**
 * Reciprocal rank fusion (Cormack et al., 2009) of two rankings of the same pool: a memory found by both
 * words and meaning comes first, one found by either still takes part. Ties keep the word ranking's order.
 */
export function fuseRankings(byWords: readonly number[], byMeaning: readonly number[]): number[] {
  const K = 60
  const scores = new Map<number, number>()
  const firstSeen = new Map<number, number>()
  for (const ranking of [byWords, byMeaning])
    ranking.forEach((index, rank) => {
      scores.set(index, (scores.get(index) ?? 0) + 1 / (K + rank + 1))
      if (!firstSeen.has(index)) firstSeen.set(index, firstSeen.size)
    })
  return [...scores]
    .sort((a, b) => b[1] - a[1] || (firstSeen.get(a[0]) ?? 0) - (firstSeen.get(b[0]) ?? 0))
    .map(([index]) => index)
}
