import { randomUUID } from 'node:crypto'
import { resolve } from 'node:path'
import { AppError } from '../../shared/errors'
import type { MemoryListing } from '../../shared/ipc/routes/memory'
import type { Memory, MemoryPreferences, MemoryScope } from '../../shared/memory'
import { type MemoryStore, workspaceScope } from './memoryStore'

/** How long "forget everything" can be undone. */
export const UNDO_FORGET_MS = 60_000

type ScopeChoice = 'everywhere' | 'workspace'

/** The `memory.*` routes of Settings → Memory; the workspace is the folder open now. */
export function memoryHandlers(options: {
  store: MemoryStore
  workspaceRoot: () => string
  now?: () => number
}) {
  const { store } = options
  const now = options.now ?? Date.now
  const forgotten = new Map<string, { memories: Memory[]; until: number }>()
  const scopeOf = (choice: ScopeChoice): MemoryScope =>
    choice === 'workspace' ? workspaceScope(options.workspaceRoot()) : { kind: 'everywhere' }
  return {
    'memory.list': async (input?: { query?: string | undefined }): Promise<MemoryListing> => ({
      memories: await store.list({ query: input?.query }),
      preferences: await store.preferences(),
      workspace: resolve(options.workspaceRoot()),
    }),
    'memory.add': (input: { text: string; scope: ScopeChoice }) =>
      store.add({ text: input.text, scope: scopeOf(input.scope), source: { kind: 'settings' } }),
    'memory.update': (input: { id: string; text?: string | undefined; scope?: ScopeChoice | undefined }) =>
      store.update(input.id, { text: input.text, ...(input.scope ? { scope: scopeOf(input.scope) } : {}) }),
    'memory.delete': (input: { id: string }) => store.remove(input.id),
    'memory.forgetAll': async () => {
      for (const [token, entry] of forgotten) if (entry.until < now()) forgotten.delete(token)
      const memories = await store.clear()
      const undoToken = randomUUID()
      const until = now() + UNDO_FORGET_MS
      forgotten.set(undoToken, { memories, until })
      return { count: memories.length, undoToken, undoUntil: new Date(until).toISOString() }
    },
    'memory.undoForget': async (input: { undoToken: string }) => {
      const entry = forgotten.get(input.undoToken)
      if (!entry || entry.until < now()) {
        forgotten.delete(input.undoToken)
        throw new AppError(
          'NOT_FOUND',
          'Too late to undo: forgotten memories can be put back for one minute.',
        )
      }
      forgotten.delete(input.undoToken)
      return { restored: await store.restore(entry.memories) }
    },
    'memory.restore': async (input: { memories: Memory[] }) => ({
      restored: await store.restore(input.memories),
    }),
    'memory.preferences': (input: Partial<MemoryPreferences>) => store.setPreferences(input),
    'memory.export': async () => ({ json: `${JSON.stringify(await store.exportAll(), null, 2)}\n` }),
    'memory.import': async (input: { json: string }) => {
      let data: unknown
      try {
        data = JSON.parse(input.json)
      } catch {
        throw new AppError('VALIDATION_FAILED', 'Not JSON: nothing was imported.')
      }
      return store.importAll(data)
    },
  }
}
