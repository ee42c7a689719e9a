import { createHash, type Hash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rm, stat, statfs } from 'node:fs/promises'
import { dirname } from 'node:path'
import { drainedOrClosed } from '../../shared/async/drained'
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

/** `Content-Range: bytes <first>-<last>/<total>` (total `*` when unknown). */
interface ContentRange {
  first: number
  last: number
  total: number | null
}

function parseContentRange(header: string | null): ContentRange | undefined {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header?.trim() ?? '')
  if (!match) return undefined
  const [first, last] = [Number(match[1]), Number(match[2])]
  const total = match[3] === '*' ? null : Number(match[3])
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || last < first) return undefined
  if (total !== null && (!Number.isSafeInteger(total) || last >= total)) return undefined
  return { first, last, total }
}

function contentLength(response: Response): number | null {
  const length = Number(response.headers.get('content-length') ?? Number.NaN)
  return Number.isSafeInteger(length) && length >= 0 ? length : null
}

/** The server broke the HTTP rules of a download: what it sent cannot be trusted to continue the file. */
class LyingServerError extends Error {}

/**
 * The bytes a response carries and the file's total, checked against what was asked: a resume must
 * answer 206 with exactly the range `bytes=<offset>-` (the received range must start where the file
 * ends and agree with the total already known), or it would splice the wrong bytes into the model.
 */
function expectedSpan(
  response: Response,
  offset: number,
  total: number | null,
): { bytes: number | null; total: number | null } {
  if (response.status === 206) {
    const header = response.headers.get('content-range')
    const range = parseContentRange(header)
    if (!range)
      throw new LyingServerError(
        `answered 206 with the Content-Range ${JSON.stringify(header?.slice(0, 80) ?? null)}, not a byte range`,
      )
    if (range.first !== offset)
      throw new LyingServerError(
        `was asked for the bytes from ${offset} on and sent ${range.first}-${range.last} instead`,
      )
    const claimed = range.total ?? total
    if (total !== null && claimed !== null && claimed !== total)
      throw new LyingServerError(`said the file has ${total} bytes, then ${claimed}`)
    const length = contentLength(response)
    const span = range.last - range.first + 1
    if (length !== null && length !== span)
      throw new LyingServerError(`sent Content-Range ${header} with a Content-Length of ${length}`)
    return { bytes: span, total: claimed }
  }
  const length = contentLength(response)
  if (total !== null && length !== null && length !== total)
    throw new LyingServerError(`said the file has ${total} bytes, then ${length}`)
  return { bytes: length, total: length ?? total }
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

function cancelled(): AppError {
  return new AppError('CANCELLED', 'The download was cancelled; the partial file is kept to resume later.')
}

/**
 * Downloads a file with progress, resuming after a dropped connection with an HTTP Range request,
 * then verifies its sha256. Only a verified file gets the target name; a mismatch deletes it.
 *
 * Every request after the first counts against `maxResumes`, whatever ended the one before (an error,
 * or a response shorter than the file): a server that answers each request with one byte ends the
 * download after a bounded number of requests, not never. A response that does not match the range
 * asked for ends it at once and deletes the partial file.
 */
export async function downloadFile(options: DownloadOptions): Promise<DownloadResult> {
  const doFetch = options.fetch ?? globalThis.fetch
  const now = options.now ?? Date.now
  const maxResumes = options.maxResumes ?? 5
  const part = `${options.target}.part`
  await mkdir(dirname(part), { recursive: true })
  let hash = createHash('sha256')
  let received = await hashExisting(part, hash)
  if (options.expectedBytes)
    await checkFreeSpace(dirname(part), options.expectedBytes - received, options.reserveBytes ?? 256 * MIB)
  // What the server says the file holds; the catalogue's size is only a guess until then.
  let total: number | null = null
  let resumes = 0
  const started = now()
  let startBytes = received
  const report = () => {
    const seconds = Math.max((now() - started) / 1000, 0.001)
    const speed = Math.max(0, (received - startBytes) / seconds)
    const known = total ?? options.expectedBytes ?? null
    const eta = known !== null && speed > 0 ? Math.max(0, (known - received) / speed) : null
    options.onProgress?.({ receivedBytes: received, totalBytes: known, speed, etaSeconds: eta, resumes })
  }
  const lying = async (why: string) => {
    await rm(part, { force: true })
    return new AppError(
      'UNAVAILABLE',
      `The server of ${options.url} ${why}: it does not resume downloads correctly. The partial file was deleted so that no wrong bytes are kept; run the download again to start over.`,
    )
  }
  const brokeOff = (why: string) =>
    new AppError(
      'UNAVAILABLE',
      `The download of ${options.url} broke off ${resumes + 1} times (${why}); run it again to resume.`,
    )
  for (let request = 0; ; request++) {
    if (options.signal?.aborted) throw cancelled()
    if (request > 0) {
      resumes++
      report()
    }
    let response: Response
    try {
      response = await doFetch(options.url, {
        headers: received > 0 ? { range: `bytes=${received}-` } : {},
        ...(options.signal && { signal: options.signal }),
      })
    } catch (error) {
      if (options.signal?.aborted) throw cancelled()
      if (resumes >= maxResumes)
        throw new AppError('UNAVAILABLE', `Could not reach ${options.url}: ${(error as Error).message}.`, {
          cause: error,
        })
      continue
    }
    if (response.status === 416) {
      // Asked for the bytes past the end: the partial file may already be whole (`bytes */<total>`).
      const size = /^bytes \*\/(\d+)$/.exec(response.headers.get('content-range')?.trim() ?? '')?.[1]
      if (received > 0 && received === (total ?? Number(size))) {
        await response.body?.cancel().catch(() => undefined)
        break
      }
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined)
      throw new AppError(
        response.status === 404 ? 'NOT_FOUND' : 'UNAVAILABLE',
        `The server answered ${response.status} ${response.statusText} for ${options.url}${response.status === 404 ? ': the file is not there (check the URL or the catalogue)' : ''}.`,
      )
    }
    if (received > 0 && response.status !== 206) {
      // The server ignored the Range header and sends the whole file: start over with it.
      await rm(part, { force: true })
      hash = createHash('sha256')
      received = 0
      startBytes = 0
    }
    let span: { bytes: number | null; total: number | null }
    try {
      span = expectedSpan(response, received, total)
    } catch (error) {
      await response.body?.cancel().catch(() => undefined)
      if (error instanceof LyingServerError) throw await lying(error.message)
      throw error
    }
    total = span.total
    if (received === 0 && total !== null && options.expectedBytes === undefined)
      await checkFreeSpace(dirname(part), total, options.reserveBytes ?? 256 * MIB)
    const end = span.bytes === null ? null : received + span.bytes
    try {
      const body = response.body
      if (!body) throw new Error('empty body')
      await writeBody(body as unknown as AsyncIterable<Uint8Array>, part, received > 0, (chunk) => {
        if (end !== null && received + chunk.byteLength > end)
          throw new LyingServerError(`sent more bytes than the ${span.bytes} it announced`)
        hash.update(chunk)
        received += chunk.byteLength
        report()
      })
    } catch (error) {
      if (error instanceof DiskWriteError) {
        await rm(part, { force: true })
        throw diskWriteError(error.error, dirname(part), 'the download')
      }
      if (error instanceof LyingServerError) throw await lying(error.message)
      if (options.signal?.aborted) throw cancelled()
      if (resumes >= maxResumes) throw brokeOff((error as Error).message)
      continue
    }
    if (total === null || received >= total) break
    if (resumes >= maxResumes) throw brokeOff(`the server sent ${received} of ${total} bytes and no more`)
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
