import type { Memory, MemoryFile, UsedMemory } from '../../shared/memory'
import { type Bm25Index, bm25Index } from './bm25'
import { appliesIn, type MemoryStore } from './memoryStore'
import { fuseRankings, nearestMemories, type TextEmbedder } from './semanticRanking'

export interface MemorySelection {
  /** The system-prompt section ('' when nothing is used). */
  block: string
  used: UsedMemory[]
  /** Tokens of `block` (o200k_base). */
  tokens: number
}

export interface SelectOptions {
  /** The request the memories should matter for (the user's message). */
  query: string
  /** The workspace folder of the run: its memories and the ones for everywhere apply. */
  workspace?: string | undefined
  /** Overrides the file's budget (tokens). */
  budgetTokens?: number | undefined
  /**
   * The memories of the pool nearest to the request by meaning (indexes, nearest first), when embeddings
   * are set: fused with the word matches, so "bill" finds the invoice memory.
   */
  nearest?: ((pool: readonly Memory[]) => Promise<readonly number[]>) | undefined
}

export const MEMORY_HEADER =
  '\n\n## Memory\n\nFacts the user chose to keep across conversations. Use them where they help; ' +
  "the user's message wins over them. To change one, use the memory toolset with its id.\n"

type Counter = (text: string) => number
let counter: Counter | undefined

async function tokenCounter(): Promise<Counter> {
  if (!counter) {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base')
    counter = (text) => (text === '' ? 0 : countTokens(text))
  }
  return counter
}

const line = (memory: Memory) => `- [${memory.id}] ${memory.text.replace(/\s+/g, ' ')}\n`

/** Beyond this many matches the block is full long before; weaker ones are not looked at. */
const MAX_CANDIDATES = 200

/** The store hands out the same array until a write, so its index is built once per change and workspace. */
const pools = new WeakMap<readonly Memory[], Map<string, { pool: Memory[]; index: Bm25Index }>>()

function poolOf(memories: readonly Memory[], workspace: string | undefined) {
  let byWorkspace = pools.get(memories)
  if (!byWorkspace) {
    byWorkspace = new Map()
    pools.set(memories, byWorkspace)
  }
  const key = workspace ?? ''
  let entry = byWorkspace.get(key)
  if (!entry) {
    const pool = memories.filter((m) => appliesIn(m, workspace))
    entry = { pool, index: bm25Index(pool.map((m) => m.text)) }
    byWorkspace.set(key, entry)
  }
  return entry
}

const EMPTY: MemorySelection = { block: '', used: [], tokens: 0 }

/**
 * The memories that matter for one request, as a system-prompt block under a token budget. Chosen once
 * per conversation turn (the caller keeps the block for every call of the run, so prefix caches hold):
 * the BM25 matches of the request (fused with the nearest by meaning when embeddings are set), best first; when every memory that applies fits the budget, all of
 * them (matches first), so a small store is always fully known. Same file and request, same bytes.
 */
export async function selectMemories(file: MemoryFile, options: SelectOptions): Promise<MemorySelection> {
  const budget = options.budgetTokens ?? file.preferences.budgetTokens
  if (file.preferences.paused || budget <= 0) return EMPTY
  const { pool, index } = poolOf(file.memories, options.workspace)
  if (pool.length === 0) return EMPTY
  const count = await tokenCounter()
  const header = count(MEMORY_HEADER)
  const byWords = index.search(options.query).map((hit) => hit.index)
  const order = options.nearest ? fuseRankings(byWords, await options.nearest(pool)) : byWords
  const hits = order.map((at) => pool[at] as Memory)
  let ranked = hits
  // Text averages well under 8 characters a token, so a store with more cannot fit whole: skip counting
  // every line (at worst only the matches are given).
  const chars = pool.reduce((sum, m) => sum + m.text.length, 0)
  if (chars <= budget * 8 && header + pool.reduce((sum, m) => sum + count(line(m)), 0) <= budget) {
    const seen = new Set(hits)
    ranked = [...hits, ...pool.filter((m) => !seen.has(m))]
  }
  const chosen: Memory[] = []
  let total = header
  for (const memory of ranked.slice(0, MAX_CANDIDATES)) {
    if (budget - total < 8) break
    const cost = count(line(memory))
    if (total + cost > budget) continue
    chosen.push(memory)
    total += cost
  }
  if (chosen.length === 0) return EMPTY
  let block = MEMORY_HEADER + chosen.map(line).join('')
  let tokens = count(block)
  // Token merges across line ends can add a token or two; drop the weakest until it fits.
  while (tokens > budget && chosen.length > 0) {
    chosen.pop()
    block = chosen.length > 0 ? MEMORY_HEADER + chosen.map(line).join('') : ''
    tokens = count(block)
  }
  if (chosen.length === 0) return EMPTY
  return {
    block: block.trimEnd(),
    used: chosen.map((m) => ({ id: m.id, text: m.text })),
    tokens: count(block.trimEnd()),
  }
}

/**
 * The `nearest` option for a store opened with an embedder: the request and the memories not seen before
 * are embedded once per turn. An embedder that fails costs the turn its meaning ranking (`onError` is told),
 * never its memories: the word matches still choose.
 */
export async function nearestByMeaning(
  store: Pick<MemoryStore, 'embeddings'>,
  query: string,
  onError?: (error: unknown) => void,
): Promise<SelectOptions['nearest']> {
  const embeddings = store.embeddings
  if (!embeddings) return undefined
  let embedder: TextEmbedder | undefined
  try {
    embedder = await embeddings.source()
  } catch (error) {
    onError?.(error)
    return undefined
  }
  if (!embedder) return undefined
  const chosen = embedder
  return (pool) =>
    nearestMemories(query, pool, chosen, embeddings.cache).catch((error: unknown) => {
      onError?.(error)
      return []
    })
}
