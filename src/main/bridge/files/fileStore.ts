import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { Readable } from 'node:stream'
import { writeFile } from 'atomically'
import { z } from 'zod'
import { drainedOrClosed } from '../../../shared/async/drained'
import { contentTypeOf } from '../../platform'
import { BridgeError, bridgeErrors } from '../errors'

/** What is kept next to each file (`<id>.json`); `owner` is the bridge token that created it. */
export const StoredFile = z.object({
  id: z.string(),
  bytes: z.number().int().nonnegative(),
  created_at: z.number().int(),
  /** Milliseconds, strictly increasing within a process: orders files created in the same second. */
  created_ms: z.number().int().optional(),
  /** Unix seconds after which the file is gone; files stored before expiry existed have none. */
  expires_at: z.number().int().nullable().optional(),
  filename: z.string(),
  purpose: z.string(),
  mime_type: z.string(),
  owner: z.string(),
})
export type StoredFile = z.infer<typeof StoredFile>

const FILE_ID = /^file-[0-9a-f]{24}$/
const UPLOAD_SUFFIX = '.upload'

export interface NewFile {
  filename: string
  purpose: string
  bytes: Uint8Array
  owner: string
  mimeType?: string
}

/** The description of a file whose bytes arrived through `receive`. */
export type NewFileMeta = Omit<NewFile, 'bytes'>

/** Bytes received into the store but not yet a file: `commit` names it, `discard` gives the room back. */
export interface ReceivedUpload {
  bytes: number
  commit(meta: NewFileMeta): Promise<StoredFile>
  discard(): Promise<void>
}

export interface ListOptions {
  purpose?: string
  order: 'asc' | 'desc'
  limit: number
  after?: string
}

export interface FileStoreLimits {
  /** All stored files together (and uploads in flight), in bytes. */
  maxStorageBytes: number
  /** Hours a file lives. */
  fileExpiryHours: number
}

export interface FileStoreOptions {
  limits: () => FileStoreLimits
  now?: () => Date
  /** Expired files are looked for at most this often (default one minute); a read always checks its file. */
  sweepIntervalMs?: number
}

export interface FileStore {
  create(file: NewFile): Promise<StoredFile>
  /**
   * Streams bytes into the store without holding them in memory: more than `maxBytes`, or more than the
   * storage quota has room for (counting other uploads in flight), ends it with a 413 and keeps nothing.
   * `expectedBytes` (from Content-Length) is held at once, so parallel uploads cannot all start, each
   * take a share of the quota, and all fail.
   */
  receive(
    source: AsyncIterable<Uint8Array>,
    maxBytes: number,
    expectedBytes?: number,
  ): Promise<ReceivedUpload>
  list(owner: string, options: ListOptions): Promise<{ data: StoredFile[]; hasMore: boolean }>
  /** Throws the 404 error for an unknown id, an expired file or another token's file. */
  get(owner: string, id: string): Promise<StoredFile>
  readBytes(owner: string, id: string): Promise<{ file: StoredFile; bytes: Buffer }>
  stream(owner: string, id: string): Promise<{ file: StoredFile; body: ReadableStream<Uint8Array> }>
  delete(owner: string, id: string): Promise<void>
  /** Bytes of the stored files and of uploads in flight. */
  usage(): Promise<{ storedBytes: number; reservedBytes: number }>
}

/** A safe display name: the last path segment, no control characters, at most 255 characters. */
export function cleanFilename(name: string | undefined): string {
  const last = basename((name ?? '').replace(/\\/g, '/'))
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = last.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean.slice(0, 255)
}

function storageFull(limit: number): BridgeError {
  return new BridgeError(
    413,
    `The file store is full: its quota of ${limit} bytes would be exceeded. Delete files you no longer need (DELETE /v1/files/{id}) or wait for older ones to expire.`,
    { param: 'file', code: 'storage_quota_exceeded' },
  )
}

const isExpired = (file: StoredFile, nowMs: number) =>
  typeof file.expires_at === 'number' && file.expires_at * 1000 <= nowMs

/**
 * Files uploaded to `/v1/files` and files the agent returned, kept in `<data-dir>/bridge/files` under a
 * storage quota, each until it expires. The bytes in use are counted once from the folder, then kept up
 * to date in memory (one `bureau serve` owns the folder).
 */
export function createFileStore(dir: string, options: FileStoreOptions): FileStore {
  const now = options.now ?? (() => new Date())
  const sweepInterval = options.sweepIntervalMs ?? 60_000
  const metaPath = (id: string) => join(dir, `${id}.json`)
  const dataPath = (id: string) => join(dir, `${id}.bin`)
  const uploadPath = (id: string) => join(dir, `${id}${UPLOAD_SUFFIX}`)
  let ready: Promise<unknown> | undefined
  let lastStamp = 0
  /** Bytes of committed files; undefined until the first sweep counted them. */
  let stored: number | undefined
  let reserved = 0
  let lastSweep = Number.NEGATIVE_INFINITY
  let sweeping: Promise<void> | undefined
  /** Uploads in flight: their partial files are not stale. */
  const receiving = new Set<string>()

  const stamp = () => {
    lastStamp = Math.max(now().getTime(), lastStamp + 1)
    return lastStamp
  }
  const ensureDir = () => {
    ready ??= mkdir(dir, { recursive: true })
    return ready
  }
  const newId = () => `file-${randomBytes(12).toString('hex')}`

  async function readMeta(id: string): Promise<StoredFile | undefined> {
    if (!FILE_ID.test(id)) return undefined
    try {
      const parsed = StoredFile.safeParse(JSON.parse(await readFile(metaPath(id), 'utf8')))
      return parsed.success ? parsed.data : undefined
    } catch {
      return undefined
    }
  }

  async function remove(file: StoredFile): Promise<void> {
    await rm(metaPath(file.id), { force: true })
    await rm(dataPath(file.id), { force: true })
    if (stored !== undefined) stored = Math.max(0, stored - file.bytes)
  }

  /** Removes expired files and left-over partial uploads, and counts what remains. */
  async function sweep(force = false): Promise<void> {
    await ensureDir()
    if (!force && stored !== undefined && now().getTime() - lastSweep < sweepInterval) return
    sweeping ??= (async () => {
      const nowMs = now().getTime()
      let total = 0
      for (const name of await readdir(dir)) {
        if (name.endsWith(UPLOAD_SUFFIX)) {
          if (!receiving.has(name.slice(0, -UPLOAD_SUFFIX.length))) await rm(join(dir, name), { force: true })
          continue
        }
        if (!name.endsWith('.json')) continue
        const file = await readMeta(name.slice(0, -'.json'.length))
        if (!file) continue
        if (isExpired(file, nowMs)) {
          await rm(metaPath(file.id), { force: true })
          await rm(dataPath(file.id), { force: true })
        } else total += file.bytes
      }
      stored = total
      lastSweep = nowMs
    })().finally(() => {
      sweeping = undefined
    })
    await sweeping
  }

  /** Holds room for `bytes` more, or throws the 413 when the quota has none. */
  function reserve(bytes: number): void {
    const limit = options.limits().maxStorageBytes
    if ((stored ?? 0) + reserved + bytes > limit) throw storageFull(limit)
    reserved += bytes
  }

  async function get(owner: string, id: string): Promise<StoredFile> {
    const file = await readMeta(id)
    if (!file || file.owner !== owner) throw bridgeErrors.noSuchFile(id)
    if (isExpired(file, now().getTime())) {
      await remove(file)
      throw bridgeErrors.noSuchFile(id)
    }
    return file
  }

  /** Writes the metadata of a file whose content is already in place under its final name. */
  async function commitMeta(id: string, bytes: number, input: NewFileMeta): Promise<StoredFile> {
    const filename = cleanFilename(input.filename)
    const createdMs = stamp()
    const file: StoredFile = {
      id,
      bytes,
      created_at: Math.floor(createdMs / 1000),
      created_ms: createdMs,
      expires_at: Math.floor((createdMs + options.limits().fileExpiryHours * 3_600_000) / 1000),
      filename,
      purpose: input.purpose,
      mime_type: input.mimeType || contentTypeOf(filename),
      owner: input.owner,
    }
    await writeFile(metaPath(id), JSON.stringify(file))
    return file
  }

  return {
    async create(input) {
      await sweep()
      const size = input.bytes.byteLength
      reserve(size)
      const id = newId()
      try {
        // Content first: a metadata file only ever names complete content.
        await writeFile(dataPath(id), input.bytes)
        const file = await commitMeta(id, size, input)
        stored = (stored ?? 0) + size
        return file
      } catch (error) {
        await rm(dataPath(id), { force: true })
        throw error
      } finally {
        reserved -= size
      }
    },
    async receive(source, maxBytes, expectedBytes) {
      await sweep()
      // Room held for this upload; `written` of it is used.
      let held = Math.min(Math.max(0, expectedBytes ?? 0), maxBytes)
      reserve(held)
      const id = newId()
      const partial = uploadPath(id)
      receiving.add(id)
      let written = 0
      const release = () => {
        reserved -= held
        held = 0
        receiving.delete(id)
      }
      const out = createWriteStream(partial, { flags: 'wx' })
      let failed: Error | undefined
      out.on('error', (error) => {
        failed ??= error
      })
      const closed = new Promise<void>((resolve) => out.once('close', () => resolve()))
      try {
        for await (const chunk of source) {
          if (written + chunk.byteLength > maxBytes) throw bridgeErrors.fileTooLarge(maxBytes)
          const more = written + chunk.byteLength - held
          if (more > 0) {
            reserve(more)
            held += more
          }
          written += chunk.byteLength
          if (failed) throw failed
          if (!out.write(chunk)) await drainedOrClosed(out)
        }
        out.end()
        await closed
        if (failed) throw failed
      } catch (error) {
        out.destroy()
        await closed
        await rm(partial, { force: true })
        release()
        throw error
      }
      const bytes = written
      let settled = false
      return {
        bytes,
        async commit(meta) {
          if (settled) throw new Error('upload already settled')
          settled = true
          try {
            await rename(partial, dataPath(id))
            const file = await commitMeta(id, bytes, meta)
            stored = (stored ?? 0) + bytes
            return file
          } catch (error) {
            await rm(dataPath(id), { force: true })
            await rm(partial, { force: true })
            throw error
          } finally {
            release()
          }
        },
        async discard() {
          if (settled) return
          settled = true
          await rm(partial, { force: true })
          release()
        },
      }
    },
    async list(owner, listOptions) {
      await sweep()
      const names = (await readdir(dir)).filter((name) => name.endsWith('.json'))
      const nowMs = now().getTime()
      const files: StoredFile[] = []
      for (const name of names) {
        const file = await readMeta(name.slice(0, -'.json'.length))
        if (
          file &&
          file.owner === owner &&
          !isExpired(file, nowMs) &&
          (!listOptions.purpose || file.purpose === listOptions.purpose)
        )
          files.push(file)
      }
      const direction = listOptions.order === 'asc' ? 1 : -1
      const order = (f: StoredFile) => f.created_ms ?? f.created_at * 1000
      files.sort((a, b) => direction * (order(a) - order(b) || a.id.localeCompare(b.id)))
      const start = listOptions.after ? files.findIndex((f) => f.id === listOptions.after) + 1 : 0
      const page = files.slice(start, start + listOptions.limit)
      return { data: page, hasMore: start + listOptions.limit < files.length }
    },
    get,
    async readBytes(owner, id) {
      const file = await get(owner, id)
      return { file, bytes: await readFile(dataPath(id)) }
    },
    async stream(owner, id) {
      const file = await get(owner, id)
      const body = Readable.toWeb(createReadStream(dataPath(id))) as ReadableStream<Uint8Array>
      return { file, body }
    },
    async delete(owner, id) {
      await remove(await get(owner, id))
    },
    async usage() {
      await sweep(true)
      return { storedBytes: stored ?? 0, reservedBytes: reserved }
    },
  }
}

/** The file object as OpenAI returns it. */
export function fileObject(file: StoredFile) {
  return {
    id: file.id,
    object: 'file' as const,
    bytes: file.bytes,
    created_at: file.created_at,
    expires_at: file.expires_at ?? null,
    filename: file.filename,
    purpose: file.purpose,
    status: 'processed' as const,
    status_details: null,
  }
}
