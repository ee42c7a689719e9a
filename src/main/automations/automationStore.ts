import { randomBytes } from 'node:crypto'
import { readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFile } from 'atomically'
import {
  AUTOMATIONS_FILE_VERSION,
  type Automation,
  AutomationRun,
  AutomationsFile,
  MAX_AUTOMATIONS,
  RUNS_KEPT,
} from '../../shared/automations'
import { AppError } from '../../shared/errors'

export const AUTOMATIONS_FILE_NAME = 'automations.json'

export interface AutomationStoreOptions {
  dataDir: string
  /** A damaged file was moved aside (its new name). */
  onDamaged?: (movedTo: string) => void
  now?: () => Date
}

/** An automation as checked by the service (trigger normalised), without the fields the store sets. */
export type CheckedAutomation = Omit<Automation, 'id' | 'createdAt' | 'updatedAt' | 'lastSlot'>

export interface AutomationStore {
  readonly path: string
  list(): Promise<Automation[]>
  /** By id, or by name (case-insensitive). */
  get(idOrName: string): Promise<Automation>
  /** Stores a new automation and returns it as read back from the file. */
  add(input: CheckedAutomation): Promise<Automation>
  update(id: string, change: Partial<CheckedAutomation>): Promise<Automation>
  remove(id: string): Promise<Automation>
  /** The scheduler's memory of the last slot it ran or skipped. */
  setLastSlot(id: string, slot: string): Promise<void>
  /** Runs, newest first (of one automation, or all). */
  runs(automationId?: string): Promise<AutomationRun[]>
  run(runId: string): Promise<AutomationRun>
  saveRun(run: AutomationRun): Promise<AutomationRun>
  /** Runs still marked running (the app was closed during them) become interrupted; returns them. */
  interruptRunning(): Promise<AutomationRun[]>
  /** Any write from this process (the runner reschedules). */
  onChange(listener: () => void): () => void
}

/** `<data-dir>/automations.json`: zod-checked, versioned, written atomically, one write at a time. */
export function openAutomationStore(options: AutomationStoreOptions): AutomationStore {
  const path = join(options.dataDir, AUTOMATIONS_FILE_NAME)
  const now = () => (options.now?.() ?? new Date()).toISOString()
  const listeners = new Set<() => void>()
  let cached: AutomationsFile | undefined
  let tail: Promise<unknown> = Promise.resolve()
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const result = tail.then(task)
    tail = result.catch(() => undefined)
    return result
  }

  async function readDisk(): Promise<AutomationsFile> {
    let text: string
    try {
      text = await readFile(path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return AutomationsFile.parse({})
      throw new AppError(
        'UNAVAILABLE',
        `Could not read ${AUTOMATIONS_FILE_NAME}: ${(error as Error).message}`,
        { cause: error },
      )
    }
    let parsed: ReturnType<typeof AutomationsFile.safeParse> | undefined
    try {
      parsed = AutomationsFile.safeParse(JSON.parse(text))
    } catch {
      parsed = undefined
    }
    if (parsed?.success) {
      if (parsed.data.schemaVersion > AUTOMATIONS_FILE_VERSION) {
        throw new AppError(
          'UNSUPPORTED',
          `${AUTOMATIONS_FILE_NAME} was written by a newer Bureau (format ${parsed.data.schemaVersion}); update Bureau to change automations.`,
        )
      }
      return parsed.data
    }
    // Damaged: keep the bytes next to it and start empty, so nothing is lost and the app starts.
    const aside = `automations.corrupt-${now().replace(/[:.]/g, '-')}.json`
    await rename(path, join(options.dataDir, aside))
    options.onDamaged?.(aside)
    return AutomationsFile.parse({})
  }

  const load = async () => {
    cached ??= await readDisk()
    return cached
  }

  async function mutate<T>(change: (file: AutomationsFile) => T): Promise<T> {
    return serial(async () => {
      const file = structuredClone(await load())
      const result = change(file)
      await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 })
      cached = undefined
      cached = await readDisk()
      for (const listener of listeners) listener()
      return result
    })
  }

  function find(file: AutomationsFile, idOrName: string): Automation {
    const wanted = idOrName.trim().toLowerCase()
    const found =
      file.automations.find((a) => a.id === idOrName) ??
      file.automations.find((a) => a.name.toLowerCase() === wanted)
    if (!found) {
      const names = file.automations.map((a) => `"${a.name}"`).join(', ')
      throw new AppError(
        'NOT_FOUND',
        `No automation "${idOrName}". ${names ? `There are: ${names}.` : 'There are none yet.'}`,
      )
    }
    return found
  }

  function refuseTwin(file: AutomationsFile, name: string, exceptId?: string): void {
    const twin = file.automations.find(
      (a) => a.id !== exceptId && a.name.toLowerCase() === name.toLowerCase(),
    )
    if (twin)
      throw new AppError(
        'CONFLICT',
        `An automation named "${twin.name}" exists already; choose another name.`,
      )
  }

  function newId(file: AutomationsFile): string {
    for (;;) {
      const id = `a${randomBytes(4).toString('hex')}`
      if (!file.automations.some((a) => a.id === id)) return id
    }
  }

  return {
    path,
    async list() {
      return [...(await load()).automations]
    },
    async get(idOrName) {
      return find(await load(), idOrName)
    },
    async add(input) {
      const id = await mutate((file) => {
        if (file.automations.length >= MAX_AUTOMATIONS)
          throw new AppError(
            'TOO_LARGE',
            `Bureau keeps at most ${MAX_AUTOMATIONS} automations; delete some first.`,
          )
        refuseTwin(file, input.name)
        const at = now()
        const id = newId(file)
        file.automations.push({ ...input, id, createdAt: at, updatedAt: at })
        return id
      })
      return find(await load(), id)
    },
    async update(id, change) {
      await mutate((file) => {
        const current = find(file, id)
        if (change.name !== undefined) refuseTwin(file, change.name, current.id)
        const index = file.automations.indexOf(current)
        const next: Automation = { ...current, ...stripUndefined(change), updatedAt: now() }
        // A new schedule starts counting from now: no "missed" runs of the old one.
        if (change.trigger) delete next.lastSlot
        file.automations[index] = next
      })
      return find(await load(), id)
    },
    async remove(id) {
      return mutate((file) => {
        const found = find(file, id)
        file.automations = file.automations.filter((a) => a.id !== found.id)
        file.runs = file.runs.filter((r) => r.automationId !== found.id)
        return found
      })
    },
    async setLastSlot(id, slot) {
      await mutate((file) => {
        const found = file.automations.find((a) => a.id === id)
        if (found) found.lastSlot = slot
      })
    },
    async runs(automationId) {
      const runs = (await load()).runs.filter((r) => !automationId || r.automationId === automationId)
      return runs.sort((a, b) => b.startedAt.localeCompare(a.startedAt))
    },
    async run(runId) {
      const found = (await load()).runs.find((r) => r.id === runId)
      if (!found) throw new AppError('NOT_FOUND', `No automation run "${runId}".`)
      return found
    },
    async saveRun(run) {
      const checked = AutomationRun.parse(run)
      await mutate((file) => {
        const index = file.runs.findIndex((r) => r.id === checked.id)
        if (index >= 0) file.runs[index] = checked
        else file.runs.push(checked)
        const mine = file.runs.filter((r) => r.automationId === checked.automationId)
        if (mine.length > RUNS_KEPT) {
          const drop = new Set(
            mine
              .sort((a, b) => a.startedAt.localeCompare(b.startedAt))
              .slice(0, mine.length - RUNS_KEPT)
              .map((r) => r.id),
          )
          file.runs = file.runs.filter((r) => !drop.has(r.id))
        }
      })
      return (await load()).runs.find((r) => r.id === checked.id) ?? checked
    },
    async interruptRunning() {
      const file = await load()
      if (!file.runs.some((r) => r.status === 'running')) return []
      return mutate((next) => {
        const stopped: AutomationRun[] = []
        for (const run of next.runs) {
          if (run.status !== 'running') continue
          run.status = 'interrupted'
          run.finishedAt = now()
          run.error = 'Bureau was closed during this run.'
          stopped.push(run)
        }
        return stopped
      })
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
