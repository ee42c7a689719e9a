import { z } from 'zod'
import { AppError } from '../../../shared/errors'

/** Turns passages into vectors. `id` names the model and endpoint: vectors of another id are never mixed. */
export interface Embedder {
  readonly id: string
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>
}

export interface EndpointEmbedderOptions {
  readonly kind: 'openai-compatible' | 'ollama'
  /** `…/v1` for OpenAI-compatible servers, the server URL for Ollama (as the provider settings hold them). */
  readonly baseUrl: string
  readonly model: string
  readonly apiKey?: string | undefined
  readonly headers?: Record<string, string>
  readonly timeoutMs?: number
  readonly fetch?: typeof fetch
}

const OpenAiEmbeddings = z.object({
  data: z.array(z.object({ index: z.number().int().optional(), embedding: z.array(z.number()) })),
})
const OllamaEmbeddings = z.object({ embeddings: z.array(z.array(z.number())) })

const BATCH = 32

/** Embeddings over HTTP: OpenAI-compatible `POST {baseUrl}/embeddings` or Ollama `POST {baseUrl}/api/embed`. */
export function endpointEmbedder(options: EndpointEmbedderOptions): Embedder {
  const doFetch = options.fetch ?? fetch
  const base = options.baseUrl.replace(/\/+$/, '')
  const url = options.kind === 'ollama' ? `${base.replace(/\/v1$/, '')}/api/embed` : `${base}/embeddings`
  const host = safeHost(url)
  const embedBatch = async (input: readonly string[], signal?: AbortSignal): Promise<number[][]> => {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000)
    let response: Response
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...options.headers,
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: options.model, input }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      })
    } catch (error) {
      if (signal?.aborted) throw new AppError('CANCELLED', 'Embedding was cancelled.', { cause: error })
      throw new AppError(
        'UNAVAILABLE',
        `The embeddings endpoint at ${host} cannot be reached (${errorText(error)}).`,
        { cause: error },
      )
    }
    if (!response.ok)
      throw new AppError(
        'UNAVAILABLE',
        `The embeddings endpoint at ${host} answered HTTP ${response.status}.`,
      )
    const json: unknown = await response.json().catch(() => undefined)
    const vectors = parseVectors(json, options.kind)
    if (!vectors || vectors.length !== input.length)
      throw new AppError(
        'UNAVAILABLE',
        `The embeddings endpoint at ${host} sent an answer that is not a list of vectors.`,
      )
    const dimensions = vectors[0]?.length ?? 0
    if (dimensions === 0 || vectors.some((vector) => vector.length !== dimensions))
      throw new AppError(
        'UNAVAILABLE',
        `The embeddings endpoint at ${host} sent vectors of differing lengths.`,
      )
    return vectors
  }
  return {
    id: `${options.kind}:${options.model}@${base}`,
    async embed(texts, signal) {
      const out: number[][] = []
      for (let index = 0; index < texts.length; index += BATCH)
        out.push(...(await embedBatch(texts.slice(index, index + BATCH), signal)))
      return out
    },
  }
}

/** Where a local embedder gets its vectors: the built-in llama.cpp with an installed GGUF model. */
export interface LocalVectors {
  embed(model: string, texts: readonly string[], signal?: AbortSignal): Promise<number[][]>
}

/** Embeddings from an installed GGUF model, in batches, checked like an endpoint's answer. */
export function localEmbedder(model: string, source: LocalVectors): Embedder {
  return {
    id: `local:${model}`,
    async embed(texts, signal) {
      const out: number[][] = []
      for (let index = 0; index < texts.length; index += BATCH) {
        const vectors = await source.embed(model, texts.slice(index, index + BATCH), signal)
        const dimensions = vectors[0]?.length ?? 0
        if (dimensions === 0 || vectors.some((vector) => vector.length !== dimensions))
          throw new AppError('UNAVAILABLE', `The local model ${model} gave no usable vectors.`)
        out.push(...vectors)
      }
      return out
    },
  }
}

function parseVectors(json: unknown, kind: EndpointEmbedderOptions['kind']): number[][] | undefined {
  if (kind === 'ollama') return OllamaEmbeddings.safeParse(json).data?.embeddings
  const parsed = OpenAiEmbeddings.safeParse(json)
  if (!parsed.success) return undefined
  return [...parsed.data.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((item) => item.embedding)
}

function safeHost(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return 'the configured address'
  }
}

function errorText(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code
  return typeof cause === 'string' ? cause : error instanceof Error ? error.message : 'failed'
}
