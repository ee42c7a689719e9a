import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, isAbsolute, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { z } from 'zod'
import { AppError } from '../../shared/errors'
import { diskWriteError, isFsError } from './diskErrors'
import { checkGguf, checkGgufHeader } from './ggufCheck'
import { checkModelId } from './modelId'

export const MODELS_DIR_NAME = 'models'

/** The sidecar `<id>.json` written next to each installed `<id>.gguf`. */
const InstalledMetaSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  source: z.string(),
  sha256: z.string(),
  installedAt: z.string(),
})

export interface InstalledModel {
  id: string
  name: string
  path: string
  sizeBytes: number
  /** The URL it was downloaded from, or the file it was imported from. */
  source: string
  sha256: string | null
  installedAt: string | null
}

export function modelsDir(dataDir: string): string {
  return join(dataDir, MODELS_DIR_NAME)
}

/** A model id from a file name: `Qwen3-4B-Q4_K_M.gguf` → `qwen3-4b-q4_k_m`. */
export function idFromFileName(name: string): string {
  const id = basename(name)
    .replace(/\.gguf$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 80)
  return id || 'model'
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(path), hash)
  return hash.digest('hex')
}

/** Copies a file and hashes it in one pass (a stream, so a full disk fails with ENOSPC, not EINVAL). */
async function copyHashed(from: string, to: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(
    createReadStream(from),
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk)
        yield chunk
      }
    },
    createWriteStream(to),
  )
  return hash.digest('hex')
}

async function readMeta(path: string): Promise<z.infer<typeof InstalledMetaSchema> | undefined> {
  try {
    return InstalledMetaSchema.parse(JSON.parse(await readFile(path, 'utf8')))
  } catch {
    return undefined
  }
}

/** Installed models: every `.gguf` in `<data-dir>/models/` (downloads in progress are `.part` files). */
export class ModelStore {
  readonly dir: string

  constructor(dataDir: string) {
    this.dir = modelsDir(dataDir)
  }

  async list(): Promise<InstalledModel[]> {
    const names = await readdir(this.dir).catch(() => [] as string[])
    const out: InstalledModel[] = []
    for (const name of names.filter((n) => n.endsWith('.gguf')).sort()) {
      const id = name.slice(0, -'.gguf'.length)
      const path = join(this.dir, name)
      const info = await stat(path).catch(() => undefined)
      if (!info?.isFile()) continue
      const meta = await readMeta(join(this.dir, `${id}.json`))
      out.push({
        id,
        name: meta?.name ?? id,
        path,
        sizeBytes: info.size,
        source: meta?.source ?? path,
        sha256: meta?.sha256 ?? null,
        installedAt: meta?.installedAt ?? null,
      })
    }
    return out
  }

  /** The file of an installed model; an absolute path to a .gguf is used as it is. */
  async modelPath(model: string): Promise<string> {
    if (isAbsolute(model) && model.endsWith('.gguf')) {
      // A file named by the user, not installed (so never checked): its header is walked first.
      await checkGgufHeader(model)
      return model
    }
    const path = join(this.dir, `${checkModelId(model)}.gguf`)
    const info = await stat(path).catch(() => undefined)
    if (!info?.isFile())
      throw new AppError(
        'NOT_FOUND',
        `The local model "${model}" is not installed. Download it with \`bureau models pull ${model}\` or in Settings → Local models.`,
      )
    return path
  }

  /** Moves a checked file into place as `<id>.gguf` with its sidecar (atomically: rename). */
  async install(
    file: string,
    meta: { id: string; name: string; source: string; sha256: string },
  ): Promise<InstalledModel> {
    checkModelId(meta.id)
    await mkdir(this.dir, { recursive: true })
    const target = join(this.dir, `${meta.id}.gguf`)
    await rename(file, target)
    const installedAt = new Date().toISOString()
    await writeFile(
      join(this.dir, `${meta.id}.json`),
      `${JSON.stringify({ ...meta, installedAt }, null, 2)}\n`,
    )
    const info = await stat(target)
    return { ...meta, path: target, sizeBytes: info.size, installedAt }
  }

  /** Copies an existing .gguf in, after checking it is a complete GGUF model; the original stays. */
  async import(file: string, id = idFromFileName(file)): Promise<InstalledModel> {
    checkModelId(id)
    await checkGguf(file)
    await mkdir(this.dir, { recursive: true })
    const partial = join(this.dir, `${id}.gguf.import`)
    try {
      const sha256 = await copyHashed(file, partial)
      return await this.install(partial, { id, name: basename(file), source: file, sha256 })
    } catch (error) {
      await rm(partial, { force: true })
      if (isFsError(error)) throw diskWriteError(error, this.dir, `importing ${basename(file)}`)
      throw error
    }
  }

  async remove(id: string): Promise<void> {
    checkModelId(id)
    const path = join(this.dir, `${id}.gguf`)
    const exists = await stat(path).catch(() => undefined)
    if (!exists) throw new AppError('NOT_FOUND', `No installed model "${id}" in ${this.dir}.`)
    await rm(path, { force: true })
    await rm(join(this.dir, `${id}.json`), { force: true })
  }
}
