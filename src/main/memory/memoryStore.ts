import { randomBytes } from 'node:crypto'
import { readFile, rename } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { writeFile } from 'atomically'
import { AppError } from '../../shared/errors'
import {
  MAX_MEMORIES,
  Memory,
  MemoryExport,
  MemoryFile,
  MemoryPreferences,
  type MemoryScope,
  type MemorySource,
  MemoryText,
} from '../../shared/memory'
import { bm25Index, terms } from './bm25'
import { secretReason, secretRefusal } from './secretCheck'
import { type EmbedderSource, VectorCache } from './semanticRanking'

export const MEMORY_FILE_NAME = 'memories.json'

export interface MemoryStoreOptions {
  dataDir: string
  /** A damaged file was moved aside (its new name, never the folder). */
  onDamaged?: (movedTo: string) => void
  now?: () => Date
  /** The embedder of the knowledge settings: when set, memories are also chosen by meaning. */
  embedder?: EmbedderSource | undefined
}

export interface MemoryFilter {
  /** Words to look for (BM25, best first); without it the newest first. */
  query?: string | undefined
  /** Only memories that apply in this workspace folder (everywhere + this folder's). */
  workspace?: string | undefined
}

export interface NewMemory {
  text: string
  scope?: MemoryScope | undefined
  source: MemorySource
}

export interface MemoryChange {
  text?: string | undefined
  scope?: MemoryScope | undefined
}

export interface MemoryStore {
  readonly path: string
  list(filter?: MemoryFilter): Promise<Memory[]>
  get(id: string): Promise<Memory>
  /** Stores a memory and returns it as read back from the file. */
  add(input: NewMemory): Promise<Memory>
  update(id: string, change: MemoryChange): Promise<Memory>
  remove(id: string): Promise<Memory>
  /** Forgets every memory; returns them (for undo). */
  clear(): Promise<Memory[]>
  /** Puts memories back (undo of clear or remove); ids already present are kept as they are. */
  restore(memories: readonly Memory[]): Promise<number>
  preferences(): Promise<MemoryPreferences>
  setPreferences(patch: Partial<MemoryPreferences>): Promise<MemoryPreferences>
  /** Memories close to a text in the same scope: shown to the model so it updates instead of piling up. */
  similar(text: string, scope: MemoryScope, excludeId?: string): Promise<Memory[]>
  exportAll(): Promise<MemoryExport>
  /** Adds the memories of an export; same text in the same scope is skipped, secrets are refused. */
  importAll(data: unknown): Promise<{ added: number; skipped: number; refused: number }>
  /** The whole file (cached), for selection. */
  snapshot(): Promise<MemoryFile>
  /** Where vectors come from and are kept between turns, when the store was opened with an embedder. */
  readonly embeddings: { source: EmbedderSource; cache: VectorCache } | undefined
}

/** The folder a workspace scope names, compared resolved. */
export function workspaceScope(folder: string): MemoryScope {
  return { kind: 'workspace', folder: resolve(folder) }
}

export function appliesIn(memory: Memory, workspace: string | undefined): boolean {
  if (memory.scope.kind === 'everywhere') return true
  return workspace !== undefined && resolve(workspace) === memory.scope.folder
}

function sameScope(a: MemoryScope, b: MemoryScope): boolean {
  return a.kind === b.kind && (a.kind === 'everywhere' || (b.kind === 'workspace' && a.folder === b.folder))
}

function checkText(raw: string): string {
  const parsed = MemoryText.safeParse(raw)
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', parsed.error.issues[0]?.message ?? 'Bad text.')
  const reason = secretReason(parsed.data)
  if (reason) throw new AppError('VALIDATION_FAILED', secretRefusal(reason))
  return parsed.data
}

function normalizeScope(scope: MemoryScope | undefined): MemoryScope {
  if (!scope || scope.kind === 'everywhere') return { kind: 'everywhere' }
  return workspaceScope(scope.folder)
}

/** The user's memories in `<data-dir>/memories.json`: zod-checked, versioned, written atomically, one write at a time. */
export function openMemoryStore(options: MemoryStoreOptions): MemoryStore {
  const path = join(options.dataDir, MEMORY_FILE_NAME)
  const now = () => (options.now?.() ?? new Date()).toISOString()
  let cached: MemoryFile | undefined
  let tail: Promise<unknown> = Promise.resolve()
  const embeddings = options.embedder ? { source: options.embedder, cache: new VectorCache() } : undefined
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const result = tail.then(task)
    tail = result.catch(() => undefined)
    return result
  }

  async function readDisk(): Promise<MemoryFile> {
    let text: string
    try {
      text = await readFile(path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return MemoryFile.parse({})
      throw new AppError('UNAVAILABLE', `Could not read ${MEMORY_FILE_NAME}: ${(error as Error).message}`, {
        cause: error,
      })
    }
    let parsed: ReturnType<typeof MemoryFile.safeParse> | undefined
    try {
      parsed = MemoryFile.safeParse(JSON.parse(text))
    } catch {
      parsed = undefined
    }
    if (parsed?.success) {
      if (parsed.data.schemaVersion > 1) {
        throw new AppError(
          'UNSUPPORTED',
          `${MEMORY_FILE_NAME} was written by a newer Bureau (format ${parsed.data.schemaVersion}); update Bureau to change memories.`,
        )
      }
      return parsed.data
    }
    // Damaged: keep the bytes next to it and start empty, so nothing is lost and memory keeps working.
    const aside = `memories.corrupt-${now().replace(/[:.]/g, '-')}.json`
    await rename(path, join(options.dataDir, aside))
    options.onDamaged?.(aside)
    return MemoryFile.parse({})
  }

  async function load(): Promise<MemoryFile> {
    cached ??= await readDisk()
    return cached
  }

  async function save(file: MemoryFile): Promise<void> {
    await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 })
    cached = undefined
    cached = await readDisk()
  }

  async function mutate<T>(change: (file: MemoryFile) => T): Promise<T> {
    return serial(async () => {
      const file = structuredClone(await load())
      const result = change(file)
      await save(file)
      return result
    })
  }

  function find(file: MemoryFile, id: string): Memory {
    const memory = file.memories.find((m) => m.id === id)
    if (!memory) throw new AppError('NOT_FOUND', `No memory with id "${id}". List them to see the ids.`)
    return memory
  }

  function newId(file: MemoryFile): string {
    for (;;) {
      const id = `m${randomBytes(4).toString('hex')}`
      if (!file.memories.some((m) => m.id === id)) return id
    }
  }

  const readBack = async (id: string) => find(await load(), id)

  const store: MemoryStore = {
    path,
    embeddings,
    async list(filter = {}) {
      const file = await load()
      const pool = file.memories.filter(
        (m) => filter.workspace === undefined || appliesIn(m, filter.workspace),
      )
      if (!filter.query?.trim()) return [...pool].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
      const query = filter.query.trim().toLowerCase()
      const hits = bm25Index(pool.map((m) => m.text)).search(query)
      const ranked = hits.map((hit) => pool[hit.index] as Memory)
      // A substring the words miss (a part of a word, an address) still finds its memory.
      const extra = pool.filter((m) => !ranked.includes(m) && m.text.toLowerCase().includes(query))
      return [...ranked, ...extra]
    },
    async get(id) {
      return find(await load(), id)
    },
    async add(input) {
      const text = checkText(input.text)
      const scope = normalizeScope(input.scope)
      const id = await mutate((file) => {
        if (file.memories.length >= MAX_MEMORIES) {
          throw new AppError('TOO_LARGE', `Bureau keeps at most ${MAX_MEMORIES} memories; forget some first.`)
        }
        const at = now()
        const memory = Memory.parse({
          id: newId(file),
          text,
          scope,
          source: input.source,
          createdAt: at,
          updatedAt: at,
        })
        file.memories.push(memory)
        return memory.id
      })
      return readBack(id)
    },
    async update(id, change) {
      const text = change.text === undefined ? undefined : checkText(change.text)
      await mutate((file) => {
        const memory = find(file, id)
        if (text !== undefined) memory.text = text
        if (change.scope) memory.scope = normalizeScope(change.scope)
        memory.updatedAt = now()
      })
      return readBack(id)
    },
    async remove(id) {
      return mutate((file) => {
        const memory = find(file, id)
        file.memories = file.memories.filter((m) => m.id !== id)
        return memory
      })
    },
    async clear() {
      return mutate((file) => {
        const removed = file.memories
        file.memories = []
        return removed
      })
    },
    async restore(memories) {
      const valid = memories.map((m) => Memory.parse(m))
      return mutate((file) => {
        const ids = new Set(file.memories.map((m) => m.id))
        const back = valid.filter((m) => !ids.has(m.id))
        file.memories.push(...back)
        return back.length
      })
    },
    async preferences() {
      return (await load()).preferences
    },
    async setPreferences(patch) {
      await mutate((file) => {
        file.preferences = MemoryPreferences.parse({ ...file.preferences, ...patch })
      })
      return (await load()).preferences
    },
    async similar(text, scope, excludeId) {
      const wanted = new Set(terms(text))
      if (wanted.size === 0) return []
      const pool = (await load()).memories.filter(
        (m) => m.id !== excludeId && sameScope(m.scope, normalizeScope(scope)),
      )
      const hits = bm25Index(pool.map((m) => m.text))
        .search(text)
        .slice(0, 5)
      return hits
        .map((hit) => pool[hit.index] as Memory)
        .filter((memory) => {
          const have = new Set(terms(memory.text))
          let shared = 0
          for (const word of wanted) if (have.has(word)) shared++
          return shared / Math.min(wanted.size, have.size || 1) >= 0.4
        })
        .slice(0, 3)
    },
    async exportAll() {
      return { format: 'bureau-memories', version: 1, exportedAt: now(), memories: (await load()).memories }
    },
    async importAll(data) {
      const parsed = MemoryExport.safeParse(data)
      if (!parsed.success) {
        const first = parsed.error.issues[0]
        throw new AppError(
          'VALIDATION_FAILED',
          `Not a Bureau memories export${first ? ` (${first.path.join('.') || 'file'}: ${first.message})` : ''}; nothing was imported.`,
        )
      }
      return mutate((file) => {
        let added = 0
        let skipped = 0
        let refused = 0
        for (const memory of parsed.data.memories) {
          if (secretReason(memory.text)) {
            refused++
            continue
          }
          const scope = normalizeScope(memory.scope)
          if (file.memories.some((m) => m.text === memory.text && sameScope(m.scope, scope))) {
            skipped++
            continue
          }
          if (file.memories.length >= MAX_MEMORIES) {
            skipped++
            continue
          }
          const id = file.memories.some((m) => m.id === memory.id) ? newId(file) : memory.id
          file.memories.push({ ...memory, id, scope })
          added++
        }
        return { added, skipped, refused }
      })
    },
    snapshot: load,
  }
  return store
}
