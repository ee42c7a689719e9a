import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ConvertResult } from './types'

export interface ResultCache {
  get(key: string): Promise<ConvertResult | undefined>
  set(key: string, result: ConvertResult): Promise<void>
}

/** Bumped whenever a converter's output changes, so stale disk entries are not served. */
export const CONVERTER_VERSION = 2

export function cacheKey(bytes: Uint8Array, parts: Record<string, unknown>): string {
  const hash = createHash('sha256').update(bytes).digest('hex')
  const variant = createHash('sha256')
    .update(JSON.stringify({ v: CONVERTER_VERSION, ...parts }))
    .digest('hex')
    .slice(0, 16)
  return `${hash}-${variant}`
}

/** Memory LRU in front of an optional folder of JSON files named by content hash. */
export function createResultCache(options: { dir?: string; maxEntries?: number } = {}): ResultCache {
  const maxEntries = options.maxEntries ?? 64
  const memory = new Map<string, ConvertResult>()
  const remember = (key: string, result: ConvertResult) => {
    memory.delete(key)
    memory.set(key, result)
    while (memory.size > maxEntries) memory.delete(memory.keys().next().value as string)
  }
  return {
    async get(key) {
      const hit = memory.get(key)
      if (hit) {
        remember(key, hit)
        return hit
      }
      if (!options.dir) return undefined
      try {
        const parsed = ConvertResult.safeParse(
          JSON.parse(await readFile(join(options.dir, `${key}.json`), 'utf8')),
        )
        if (!parsed.success) return undefined
        remember(key, parsed.data)
        return parsed.data
      } catch {
        return undefined
      }
    },
    async set(key, result) {
      remember(key, result)
      if (!options.dir) return
      try {
        await mkdir(options.dir, { recursive: true })
        const target = join(options.dir, `${key}.json`)
        const temp = `${target}.${process.pid}.${Date.now()}.tmp`
        await writeFile(temp, JSON.stringify(result))
        await rename(temp, target)
      } catch {
        // A cache that cannot be written only costs a re-conversion later.
      }
    },
  }
}
