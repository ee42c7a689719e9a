import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../shared/errors'
import type { CatalogueEntry } from './catalogue'
import { type DownloadProgress, downloadFile } from './download'
import { checkGguf } from './ggufCheck'
import { checkModelId } from './modelId'
import { type InstalledModel, idFromFileName, type ModelStore } from './modelStore'

export interface PullOptions {
  store: ModelStore
  catalogue: readonly CatalogueEntry[]
  /** A catalogue id or an https URL of a .gguf file. */
  ref: string
  sha256?: string | undefined
  signal?: AbortSignal
  onProgress?: (progress: DownloadProgress) => void
  fetch?: typeof fetch
}

interface Source {
  id: string
  name: string
  url: string
  sha256: string | null
  sizeBytes: number | undefined
}

function resolveSource(
  ref: string,
  catalogue: readonly CatalogueEntry[],
  sha256: string | undefined,
): Source {
  const entry = catalogue.find((e) => e.id === ref)
  if (entry)
    return {
      id: entry.id,
      name: entry.name,
      url: entry.url,
      sha256: sha256 ?? entry.sha256,
      sizeBytes: entry.sizeBytes,
    }
  let url: URL
  try {
    url = new URL(ref)
  } catch {
    throw new AppError(
      'NOT_FOUND',
      `"${ref}" is neither a catalogue model (${catalogue.map((e) => e.id).join(', ') || 'none'}) nor a URL.`,
    )
  }
  if (!/^https?:$/.test(url.protocol))
    throw new AppError('VALIDATION_FAILED', `Only http(s) URLs can be downloaded, not ${ref}.`)
  const file = decodeURIComponent(url.pathname.split('/').pop() ?? 'model.gguf')
  return { id: idFromFileName(file), name: file, url: url.href, sha256: sha256 ?? null, sizeBytes: undefined }
}

/** Downloads a model into the store: resumable, verified (sha256 and GGUF), installed only when whole. */
export async function pullModel(options: PullOptions): Promise<InstalledModel> {
  if (options.sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(options.sha256))
    throw new AppError(
      'VALIDATION_FAILED',
      `--sha256 must be 64 hexadecimal digits, not "${options.sha256}".`,
    )
  const source = resolveSource(options.ref, options.catalogue, options.sha256?.toLowerCase())
  checkModelId(source.id)
  const result = await downloadFile({
    url: source.url,
    target: join(options.store.dir, `${source.id}.gguf`),
    sha256: source.sha256,
    expectedBytes: source.sizeBytes,
    ...(options.signal && { signal: options.signal }),
    ...(options.onProgress && { onProgress: options.onProgress }),
    ...(options.fetch && { fetch: options.fetch }),
  })
  try {
    await checkGguf(result.path)
  } catch (error) {
    await rm(result.path, { force: true })
    throw error
  }
  return options.store.install(result.path, {
    id: source.id,
    name: source.name,
    source: source.url,
    sha256: result.sha256,
  })
}
