import { ConvertError, type Converter } from '../../convert'
import type { Workspace } from '../../workspace'
import type { ChunkRow } from '../store/chunkStore'
import type { FileEntry } from '../store/manifest'
import { fileChunkRows, sha256 } from './fileChunks'

export interface IndexLimits {
  readonly maxFileBytes: number
  readonly maxFiles: number
  readonly images: boolean
}

/** What one file needs: nothing, its rows dropped, its error recorded, or new rows. No store write here. */
export type Prepared =
  | { kind: 'unchanged'; entry?: FileEntry }
  | { kind: 'gone' }
  | { kind: 'failed'; entry: FileEntry; message: string }
  | { kind: 'indexed'; entry: FileEntry; rows: ChunkRow[] }

export interface PrepareContext {
  readonly workspace: Workspace
  readonly converter: Pick<Converter, 'convert'>
  readonly limits: IndexLimits
  readonly signal?: AbortSignal | undefined
}

const CONVERT_MAX_CHARS = 4_000_000

/** Reads, hashes and converts one file unless its size and time (then its hash) say it is unchanged. */
export async function prepareFile(
  path: string,
  previous: FileEntry | undefined,
  context: PrepareContext,
): Promise<Prepared> {
  const { workspace, limits, signal } = context
  let stat: Awaited<ReturnType<Workspace['stat']>>
  try {
    stat = await workspace.stat(path)
  } catch {
    return { kind: 'gone' }
  }
  const mtimeMs = Date.parse(stat.modified)
  const size = stat.size ?? 0
  if (previous && previous.size === size && previous.mtimeMs === mtimeMs && !previous.error)
    return { kind: 'unchanged' }
  const failed = (hash: string, message: string): Prepared => ({
    kind: 'failed',
    entry: { size, mtimeMs, hash, chunks: 0, embedded: false, error: message },
    message,
  })
  if (size > limits.maxFileBytes)
    return failed('', `too large to index (${size} bytes; the limit is ${limits.maxFileBytes})`)
  let bytes: Buffer
  try {
    bytes = await workspace.readFile(path, { maxBytes: limits.maxFileBytes })
  } catch (error) {
    if (!(await workspace.exists(path).catch(() => false))) return { kind: 'gone' }
    return failed('', firstLine(error))
  }
  const hash = sha256(bytes)
  if (previous && previous.hash === hash && !previous.error)
    return { kind: 'unchanged', entry: { ...previous, size, mtimeMs } }
  try {
    const name = path.slice(path.lastIndexOf('/') + 1)
    const result = await convertOnce(context, name, bytes).catch((error: unknown) => {
      // A worker that started cold on a busy machine can overrun the deadline once; a warm one seldom does.
      if (error instanceof ConvertError && error.failure === 'timeout')
        return convertOnce(context, name, bytes)
      throw error
    })
    const rows = fileChunkRows(path, result.markdown, result.format)
    const entry = { hash, size, mtimeMs, format: result.format, chunks: rows.length, embedded: false }
    return { kind: 'indexed', entry, rows }
  } catch (error) {
    signal?.throwIfAborted()
    return failed(hash, firstLine(error))
  }
}

function convertOnce(context: PrepareContext, name: string, bytes: Buffer) {
  const { signal } = context
  return context.converter.convert(
    { name, bytes },
    { maxChars: CONVERT_MAX_CHARS, ...(signal ? { signal } : {}) },
  )
}

export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.split('\n')[0]!.slice(0, 300)
}
