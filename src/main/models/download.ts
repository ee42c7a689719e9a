import { createHash, type Hash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rm, stat, statfs } from 'node:fs/promises'
import { dirname } from 'node:path'
import { AppError } from '../../shared/errors'
import { diskWriteError } from './diskErrors'

/** Progress of one download; `speed` in bytes per second, `etaSeconds` null while unknown. */
export interface DownloadProgress {
  receivedBytes: number
  totalBytes: number | null
  speed: number
  etaSeconds: number | null
  /** How many times the connection was resumed with an HTTP Range request. */
  resumes: number
}

export interface DownloadOptions {
  url: string
  /** The finished file; the bytes arrive in `<target>.part` first. */
  target: string
  /** Expected lowercase hex digest; a mismatch deletes the file. */
  sha256?: string | null | undefined
  /** Expected size for the free-space check before any byte is written. */
  expectedBytes?: number | undefined
  signal?: AbortSignal
  onProgress?: (progress: DownloadProgress) => void
  fetch?: typeof fetch
  /** Reconnects after a dropped connection (default 5). */
  maxResumes?: number
  /** Free space to keep on the disk beyond the file (default 256 MiB). */
  reserveBytes?: number
  now?: () => number
}

export interface DownloadResult {
  path: string
  sizeBytes: number
  sha256: string
  resumes: number
}

const MIB = 1024 * 1024

function gib(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`
}

async function checkFreeSpace(dir: string, needed: number, reserve: number): Promise<void> {
  const fs = await statfs(dir)
  const free = Number(fs.bavail) * Number(fs.bsize)
  if (free < needed + reserve)
    throw new AppError(
      'TOO_LARGE',
      `Not enough free disk space in ${dir}: the model needs ${gib(needed)}, ${gib(free)} are free. Free some space or choose a smaller model.`,
    )
}

/** Hashes what a `.part` file already holds, so a resumed download still verifies end to end. */
async function hashExisting(path: string, hash: Hash): Promise<number> {
  const info = await stat(path).catch(() => undefined)
  // Only a regular file holds bytes to resume from (a device such as /dev/full would read forever).
  if (!info?.isFile()) return 0
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return info.size
}

function totalFrom(response: Response, offset: number): number | null {
  const range = response.headers.get('content-range')
  const full = range ? /\/(\d+)$/.exec(range)?.[1] : undefined
  if (full) return Number(full)
  const length = response.headers.get('content-length')
  return length ? offset + Number(length) : null
}

/** A write to the `.part` file failed: not a network problem, so no resume. */
class DiskWriteError extends Error {
  constructor(readonly error: NodeJS.ErrnoException) {
    super(error.message)
  }
}

/** Writes one response body to the `.part` file with backpressure; a failed write ends it at once. */
async function writeBody(
  body: AsyncIterable<Uint8Array>,
  part: string,
  append: boolean,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  const out = createWriteStream(part, { flags: append ? 'a' : 'w' })
  let failed: NodeJS.ErrnoException | undefined
  out.on('error', (error) => {
    failed ??= error
  })
  const closed = new Promise<void>((resolve) => out.once('close', () => resolve()))
  try {
    for await (const chunk of body) {
      if (failed) break
      onChunk(chunk)
      if (!out.write(chunk)) await drainedOrClosed(out)
    }
  } finally {
    if (!out.destroyed) out.end()
    await closed
    // A failed write wins over a network error of the same moment: it is the one to act on.
    // biome-ignore lint/correctness/noUnsafeFinally: the disk error must replace the network one
    if (failed) throw new DiskWriteError(failed)
  }
}

/**
 * Waits until the stream takes more (or is closed by an error). Both listeners go once either fires: a
 * download waits thousands of times, and a `close` listener left per wait piled up (Node's leak warning
 * after ten).
 */
function drainedOrClosed(out: NodeJS.WritableStream): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done)
      out.off('close', done)
      resolve()
    }
    out.once('drain', done)
    out.once('close', done)
  })
}

function cancelled(): AppError {
  return new AppError('CANCELLED', 'The download was cancelled; the partial file is kept to resume later.')
}

/**
 * Downloads a file with progress, resuming after a dropped connection with an HTTP Range request,
 * then verifies its sha256. Only a verified file gets the target name; a mismatch deletes it.
 */
export async function downloadFile(options: DownloadOptions): Promise<DownloadResult> {
  const doFetch = options.fetch ?? globalThis.fetch
  const now = options.now ?? Date.now
  const part = `${options.target}.part`
  await mkdir(dirname(part), { recursive: true })
  const hash = createHash('sha256')
  let received = await hashExisting(part, hash)
  if (options.expectedBytes)
    await checkFreeSpace(dirname(part), options.expectedBytes - received, options.reserveBytes ?? 256 * MIB)
  let total: number | null = options.expectedBytes ?? null
  let resumes = 0
  const started = now()
  const startBytes = received
  const report = () => {
    const seconds = Math.max((now() - started) / 1000, 0.001)
    const speed = (received - startBytes) / seconds
    const eta = total !== null && speed > 0 ? Math.max(0, (total - received) / speed) : null
    options.onProgress?.({ receivedBytes: received, totalBytes: total, speed, etaSeconds: eta, resumes })
  }
  for (;;) {
    if (options.signal?.aborted) throw cancelled()
    let response: Response
    try {
      response = await doFetch(options.url, {
        headers: received > 0 ? { range: `bytes=${received}-` } : {},
        ...(options.signal && { signal: options.signal }),
      })
    } catch (error) {
      if (options.signal?.aborted) throw cancelled()
      if (resumes >= (options.maxResumes ?? 5))
        throw new AppError('UNAVAILABLE', `Could not reach ${options.url}: ${(error as Error).message}.`)
      resumes++
      continue
    }
    if (response.status === 416 && total !== null && received >= total) break
    if (!response.ok)
      throw new AppError(
        response.status === 404 ? 'NOT_FOUND' : 'UNAVAILABLE',
        `The server answered ${response.status} ${response.statusText} for ${options.url}${response.status === 404 ? ': the file is not there (check the URL or the catalogue)' : ''}.`,
      )
    if (received > 0 && response.status !== 206) {
      // The server ignored the Range header: start over.
      await rm(part, { force: true })
      return downloadFile({ ...options, maxResumes: (options.maxResumes ?? 5) - 1 })
    }
    total = totalFrom(response, received) ?? total
    if (received === 0 && total !== null && options.expectedBytes === undefined)
      await checkFreeSpace(dirname(part), total, options.reserveBytes ?? 256 * MIB)
    try {
      const body = response.body
      if (!body) throw new Error('empty body')
      await writeBody(body as unknown as AsyncIterable<Uint8Array>, part, received > 0, (chunk) => {
        hash.update(chunk)
        received += chunk.byteLength
        report()
      })
    } catch (error) {
      if (error instanceof DiskWriteError) {
        await rm(part, { force: true })
        throw diskWriteError(error.error, dirname(part), 'the download')
      }
      if (options.signal?.aborted) throw cancelled()
      if (resumes >= (options.maxResumes ?? 5))
        throw new AppError(
          'UNAVAILABLE',
          `The download of ${options.url} broke off ${resumes + 1} times (${(error as Error).message}); run it again to resume.`,
        )
      resumes++
      report()
      continue
    }
    if (total === null || received >= total) break
    resumes++
  }
  const digest = hash.digest('hex')
  if (options.sha256 && digest !== options.sha256.toLowerCase()) {
    await rm(part, { force: true })
    throw new AppError(
      'VALIDATION_FAILED',
      `The downloaded file's sha256 is ${digest}, expected ${options.sha256}: the download is damaged or the file changed. The partial file was deleted; try again.`,
    )
  }
  return { path: part, sizeBytes: received, sha256: digest, resumes }
}
