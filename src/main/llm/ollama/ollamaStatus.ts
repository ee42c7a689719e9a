import { z } from 'zod'
import { deadlineSignal } from '../../../shared/async/deadlineSignal'
import { AppError } from '../../../shared/errors'

const TagsSchema = z.object({
  models: z.array(
    z.looseObject({
      name: z.string(),
      size: z.number().optional(),
      modified_at: z.string().optional(),
    }),
  ),
})

const PullLineSchema = z.looseObject({
  status: z.string().optional(),
  total: z.number().optional(),
  completed: z.number().optional(),
  error: z.string().optional(),
})

export interface OllamaModel {
  name: string
  sizeBytes: number | null
}

export type OllamaStatus =
  | { running: true; url: string; models: OllamaModel[] }
  | { running: false; url: string; error: string; hint: string }

export const OLLAMA_INSTALL_HINT =
  'Install Ollama from https://ollama.com/download and start it, or use the built-in local model instead.'

export interface OllamaProbeOptions {
  fetch?: typeof fetch
  signal?: AbortSignal
  /** Give up after this long (default 2 s): a probe must not hold up the start. */
  timeoutMs?: number
}

function root(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/(api|v1)$/, '')
}

/** Is Ollama running at `url`, and which models does it have (`GET /api/tags`)? Never throws. */
export async function probeOllama(url: string, options: OllamaProbeOptions = {}): Promise<OllamaStatus> {
  const base = root(url)
  const deadline = deadlineSignal(options.signal, options.timeoutMs ?? 2000, () => new Error('timed out'))
  try {
    return await readTags(base, deadline.signal, options.fetch ?? fetch)
  } finally {
    deadline.dispose()
  }
}

async function readTags(base: string, signal: AbortSignal, fetchTags: typeof fetch): Promise<OllamaStatus> {
  let response: Response
  try {
    response = await fetchTags(`${base}/api/tags`, { signal })
  } catch {
    return { running: false, url: base, error: `Nothing answers at ${base}.`, hint: OLLAMA_INSTALL_HINT }
  }
  if (!response.ok)
    return {
      running: false,
      url: base,
      error: `${base} answered ${response.status} to /api/tags: is this Ollama?`,
      hint: OLLAMA_INSTALL_HINT,
    }
  const parsed = TagsSchema.safeParse(await response.json().catch(() => undefined))
  if (!parsed.success)
    return {
      running: false,
      url: base,
      error: `${base} answered /api/tags with something that is not Ollama's model list; check the Ollama URL in Settings.`,
      hint: OLLAMA_INSTALL_HINT,
    }
  return {
    running: true,
    url: base,
    models: parsed.data.models.map((m) => ({ name: m.name, sizeBytes: m.size ?? null })),
  }
}

export interface OllamaPullProgress {
  status: string
  completedBytes: number | null
  totalBytes: number | null
}

/** Pulls a model through Ollama (`POST /api/pull`), passing on its streamed progress lines. */
export async function pullOllamaModel(
  url: string,
  model: string,
  options: {
    fetch?: typeof fetch
    signal?: AbortSignal
    onProgress?: (progress: OllamaPullProgress) => void
  } = {},
): Promise<void> {
  const base = root(url)
  let response: Response
  try {
    response = await (options.fetch ?? fetch)(`${base}/api/pull`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: true }),
      ...(options.signal && { signal: options.signal }),
    })
  } catch (error) {
    if (options.signal?.aborted)
      throw new AppError('CANCELLED', `The pull of ${model} was cancelled.`, { cause: error })
    throw new AppError(
      'UNAVAILABLE',
      `Cannot reach Ollama at ${base} (${(error as Error).message}). ${OLLAMA_INSTALL_HINT}`,
      { cause: error },
    )
  }
  if (!response.ok || !response.body)
    throw new AppError('UNAVAILABLE', `Ollama answered ${response.status} to the pull of ${model}.`)
  const decoder = new TextDecoder()
  let buffer = ''
  let success = false
  const handle = (line: string) => {
    if (!line.trim()) return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      throw new AppError(
        'UNAVAILABLE',
        `Ollama sent a line that is not JSON during the pull: ${line.slice(0, 80)}`,
      )
    }
    const parsed = PullLineSchema.safeParse(value)
    if (!parsed.success)
      throw new AppError('UNAVAILABLE', 'Ollama sent an unexpected progress line during the pull.')
    if (parsed.data.error)
      throw new AppError('UNAVAILABLE', `Ollama could not pull ${model}: ${parsed.data.error}`)
    const status = parsed.data.status ?? ''
    if (status === 'success') success = true
    options.onProgress?.({
      status,
      completedBytes: parsed.data.completed ?? null,
      totalBytes: parsed.data.total ?? null,
    })
  }
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true })
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      for (const line of lines) handle(line)
    }
  } catch (error) {
    if (options.signal?.aborted)
      throw new AppError('CANCELLED', `The pull of ${model} was cancelled.`, { cause: error })
    throw error
  }
  handle(buffer)
  if (!success)
    throw new AppError('UNAVAILABLE', `Ollama's pull of ${model} ended without "success"; try again.`)
}
