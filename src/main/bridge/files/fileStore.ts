import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { Readable } from 'node:stream'
import { writeFile } from 'atomically'
import { z } from 'zod'
import { contentTypeOf } from '../../paths'
import { bridgeErrors } from '../errors'

/** What is kept next to each file (`<id>.json`); `owner` is the bridge token that created it. */
export const StoredFile = z.object({
  id: z.string(),
  bytes: z.number().int().nonnegative(),
  created_at: z.number().int(),
  /** Milliseconds, strictly increasing within a process: orders files created in the same second. */
  created_ms: z.number().int().optional(),
  filename: z.string(),
  purpose: z.string(),
  mime_type: z.string(),
  owner: z.string(),
})
export type StoredFile = z.infer<typeof StoredFile>

const FILE_ID = /^file-[0-9a-f]{24}$/

export interface NewFile {
  filename: string
  purpose: string
  bytes: Uint8Array
  owner: string
  mimeType?: string
}

export interface ListOptions {
  purpose?: string
  order: 'asc' | 'desc'
  limit: number
  after?: string
}

export interface FileStore {
  create(file: NewFile): Promise<StoredFile>
  list(owner: string, options: ListOptions): Promise<{ data: StoredFile[]; hasMore: boolean }>
  /** Throws the 404 error for an unknown id or another token's file. */
  get(owner: string, id: string): Promise<StoredFile>
  readBytes(owner: string, id: string): Promise<{ file: StoredFile; bytes: Buffer }>
  stream(owner: string, id: string): Promise<{ file: StoredFile; body: ReadableStream<Uint8Array> }>
  delete(owner: string, id: string): Promise<void>
}

/** A safe display name: the last path segment, no control characters, at most 255 characters. */
export function cleanFilename(name: string | undefined): string {
  const last = basename((name ?? '').replace(/\\/g, '/'))
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = last.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean.slice(0, 255)
}

/** Files uploaded to `/v1/files` and files the agent returned, kept in `<data-dir>/bridge/files`. */
export function createFileStore(dir: string, now: () => Date = () => new Date()): FileStore {
  const metaPath = (id: string) => join(dir, `${id}.json`)
  const dataPath = (id: string) => join(dir, `${id}.bin`)
  let ready: Promise<unknown> | undefined
  let lastStamp = 0
  const stamp = () => {
    lastStamp = Math.max(now().getTime(), lastStamp + 1)
    return lastStamp
  }
  const ensureDir = () => {
    ready ??= mkdir(dir, { recursive: true })
    return ready
  }

  async function readMeta(id: string): Promise<StoredFile | undefined> {
    if (!FILE_ID.test(id)) return undefined
    try {
      const parsed = StoredFile.safeParse(JSON.parse(await readFile(metaPath(id), 'utf8')))
      return parsed.success ? parsed.data : undefined
    } catch {
      return undefined
    }
  }

  async function get(owner: string, id: string): Promise<StoredFile> {
    const file = await readMeta(id)
    if (!file || file.owner !== owner) throw bridgeErrors.noSuchFile(id)
    return file
  }

  return {
    async create(input) {
      await ensureDir()
      const id = `file-${randomBytes(12).toString('hex')}`
      const filename = cleanFilename(input.filename)
      const createdMs = stamp()
      const file: StoredFile = {
        id,
        bytes: input.bytes.byteLength,
        created_at: Math.floor(createdMs / 1000),
        created_ms: createdMs,
        filename,
        purpose: input.purpose,
        mime_type: input.mimeType || contentTypeOf(filename),
        owner: input.owner,
      }
      // Content first: a metadata file only ever names complete content.
      await writeFile(dataPath(id), input.bytes)
      await writeFile(metaPath(id), JSON.stringify(file))
      return file
    },
    async list(owner, options) {
      await ensureDir()
      const names = (await readdir(dir)).filter((name) => name.endsWith('.json'))
      const files: StoredFile[] = []
      for (const name of names) {
        const file = await readMeta(name.slice(0, -'.json'.length))
        if (file && file.owner === owner && (!options.purpose || file.purpose === options.purpose))
          files.push(file)
      }
      const direction = options.order === 'asc' ? 1 : -1
      const order = (f: StoredFile) => f.created_ms ?? f.created_at * 1000
      files.sort((a, b) => direction * (order(a) - order(b) || a.id.localeCompare(b.id)))
      const start = options.after ? files.findIndex((f) => f.id === options.after) + 1 : 0
      const page = files.slice(start, start + options.limit)
      return { data: page, hasMore: start + options.limit < files.length }
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
      await get(owner, id)
      await rm(metaPath(id), { force: true })
      await rm(dataPath(id), { force: true })
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
    expires_at: null,
    filename: file.filename,
    purpose: file.purpose,
    status: 'processed' as const,
    status_details: null,
  }
}
