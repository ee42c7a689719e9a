import type { Exchange } from './exchange'

/** How `/v1/embeddings` and Ollama's `/api/embed` answer; changed live by tests. */
export interface EmbeddingsBehaviour {
  /** Length of every vector (default 64). */
  dimensions: number
  /** Answer every request with this HTTP status and an OpenAI error body instead. */
  failStatus?: number
}

export interface EmbeddingsScript {
  readonly behaviour: EmbeddingsBehaviour
  set(behaviour: Partial<EmbeddingsBehaviour>): void
  /** Requests answered (or failed) so far. */
  readonly calls: number
}

export function createEmbeddingsScript(): EmbeddingsScript & { count(): void } {
  const behaviour: EmbeddingsBehaviour = { dimensions: 64 }
  let calls = 0
  return {
    behaviour,
    set(change) {
      Object.assign(behaviour, change)
      if (!('failStatus' in change)) return
      if (change.failStatus === undefined) delete behaviour.failStatus
    },
    get calls() {
      return calls
    },
    count() {
      calls++
    },
  }
}

/**
 * A deterministic bag-of-words embedding: each lower-cased word (and its 4-letter prefix, a poor man's stem)
 * adds to a hashed dimension, then the vector is normalised. Texts sharing words are close, so
 * retrieval through it is meaningful without any model.
 */
export function embedText(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0)
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    vector[hash(word) % dimensions]! += 1
    if (word.length > 4) vector[hash(word.slice(0, 4)) % dimensions]! += 0.5
  }
  const norm = Math.hypot(...vector) || 1
  return vector.map((value) => value / norm)
}

function hash(word: string): number {
  let h = 2166136261
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619)
  return h >>> 0
}

function inputsOf(body: unknown): string[] | undefined {
  const input = (body as { input?: unknown } | undefined)?.input
  if (typeof input === 'string') return [input]
  if (Array.isArray(input) && input.every((item) => typeof item === 'string')) return input
  return undefined
}

export function handleEmbeddings(
  exchange: Exchange,
  script: EmbeddingsScript & { count(): void },
  flavour: 'openai' | 'ollama',
): void {
  script.count()
  const { failStatus, dimensions } = script.behaviour
  if (failStatus !== undefined) {
    exchange.json(failStatus, { error: { message: 'Scripted embeddings failure', type: 'server_error' } })
    return
  }
  const inputs = inputsOf(exchange.record.body)
  if (!inputs) {
    exchange.json(400, {
      error: { message: 'input must be a string or an array of strings', type: 'invalid_request_error' },
    })
    return
  }
  const model = String((exchange.record.body as { model?: unknown }).model ?? 'scripted-embed')
  const vectors = inputs.map((text) => embedText(text, dimensions))
  if (flavour === 'ollama') {
    exchange.json(200, { model, embeddings: vectors })
    return
  }
  exchange.json(200, {
    object: 'list',
    model,
    data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
    usage: { prompt_tokens: 0, total_tokens: 0 },
  })
}
