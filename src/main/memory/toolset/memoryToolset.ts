import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import { type Memory, MemoryText } from '../../../shared/memory'
import { defineToolset, method, type ToolContext } from '../../tools'
import { appliesIn, type MemoryStore, workspaceScope } from '../memoryStore'

export interface MemoryToolsetEnvironment {
  readonly memory: () => MemoryStore
}

const ScopeName = z
  .enum(['everywhere', 'workspace'])
  .describe(
    '"workspace": only while the current workspace folder is open; "everywhere" (default): in every conversation.',
  )

const Stored = z.object({
  id: z.string(),
  text: z.string(),
  scope: ScopeName,
  updatedAt: z.string(),
})

const stored = (memory: Memory) => ({
  id: memory.id,
  text: memory.text,
  scope: memory.scope.kind,
  updatedAt: memory.updatedAt,
})

const scopeOf = (name: 'everywhere' | 'workspace' | undefined, ctx: ToolContext) =>
  name === 'workspace' ? workspaceScope(ctx.workspace.root) : { kind: 'everywhere' as const }

async function refuseWhenPaused(store: MemoryStore): Promise<void> {
  if ((await store.preferences()).paused) {
    throw new AppError(
      'FORBIDDEN',
      'Memory is paused by the user: nothing can be stored or changed now. Go on without it.',
    )
  }
}

/** The message that shows the model the close memories, so it updates one instead of adding a twin. */
export function closeMemoriesMessage(close: readonly Memory[]): string {
  const list = close.map((m) => `[${m.id}] ${m.text}`).join('; ')
  return (
    `Not stored: close memories exist: ${list}. If the new fact changes one of them, call update with its id; ` +
    'if it is a separate fact, call remember again with distinct: true.'
  )
}

/** Whether a proposal may be put to the user: the same checks `remember` makes before it stores. */
export async function checkProposal(
  store: MemoryStore,
  args: { text: string; scope?: 'everywhere' | 'workspace'; distinct?: boolean },
  workspaceRoot: string,
): Promise<string | undefined> {
  if ((await store.preferences()).paused)
    return 'Memory is paused by the user: nothing is stored. Go on without it.'
  if (args.distinct) return undefined
  const scope = args.scope === 'workspace' ? workspaceScope(workspaceRoot) : { kind: 'everywhere' as const }
  const close = await store.similar(args.text, scope)
  return close.length > 0 ? closeMemoriesMessage(close) : undefined
}

export function createMemoryToolset(env: MemoryToolsetEnvironment) {
  return defineToolset({
    name: 'memory',
    summary: 'Facts the user keeps across conversations: remember, update, forget, list and search them.',
    description:
      'Memories are short facts about the user and their work (names, formats, folders, preferences) that the user can see and edit in Settings → Memory. ' +
      'Propose one only when the user states a lasting fact or asks you to remember something; never passwords, keys or tokens. ' +
      'The user confirms each proposal. When a fact changes, update the old memory instead of adding another.',
    methods: {
      remember: method({
        description:
          'Proposes a new memory; the user confirms it. If close memories exist it is not stored and they are returned, so you can update one instead.',
        input: z.object({
          text: MemoryText.describe(
            'One short fact in the user\'s words, e.g. "Invoices go to /finance/invoices".',
          ),
          scope: ScopeName.optional(),
          distinct: z
            .boolean()
            .optional()
            .describe('true after close memories were shown and the new fact is really separate.'),
        }),
        output: z.object({ stored: Stored }),
        examples: [{ text: 'Anna means anna.berg@firma.de', scope: 'everywhere' }],
        risk: 'write',
        run: async ({ text, scope, distinct }, ctx) => {
          const store = env.memory()
          await refuseWhenPaused(store)
          const where = scopeOf(scope, ctx)
          if (!distinct) {
            const close = await store.similar(text, where)
            if (close.length > 0) throw new AppError('CONFLICT', closeMemoriesMessage(close))
          }
          const origin = ctx.session.origin
          const memory = await store.add({
            text,
            scope: where,
            source: {
              kind: 'conversation',
              ...(origin ? { conversationId: origin.conversationId } : {}),
              ...(origin?.title ? { title: origin.title.slice(0, 300) } : {}),
            },
          })
          return { stored: stored(memory) }
        },
      }),
      update: method({
        description: 'Changes a memory (its text, its scope, or both) by id; returns it as stored.',
        input: z.object({
          id: z.string().min(1).max(64),
          text: MemoryText.optional(),
          scope: ScopeName.optional(),
        }),
        output: z.object({ stored: Stored, before: z.string() }),
        examples: [{ id: 'm1a2b3c4d', text: 'Invoices go to /finance/2025/invoices' }],
        risk: 'write',
        run: async ({ id, text, scope }, ctx) => {
          const store = env.memory()
          await refuseWhenPaused(store)
          const before = await store.get(id)
          const memory = await store.update(id, {
            text,
            ...(scope ? { scope: scopeOf(scope, ctx) } : {}),
          })
          return { stored: stored(memory), before: before.text }
        },
      }),
      forget: method({
        description: 'Deletes a memory by id and returns what was deleted.',
        input: z.object({ id: z.string().min(1).max(64) }),
        output: z.object({ forgotten: Stored }),
        examples: [{ id: 'm1a2b3c4d' }],
        risk: 'write',
        run: async ({ id }) => {
          const store = env.memory()
          await refuseWhenPaused(store)
          return { forgotten: stored(await store.remove(id)) }
        },
      }),
      list: method({
        description: 'Lists the memories that apply here (everywhere and this workspace), newest first.',
        input: z.object({ limit: z.number().int().min(1).max(200).default(50) }),
        output: z.object({ memories: z.array(Stored), total: z.number().int(), paused: z.boolean() }),
        examples: [{ limit: 20 }],
        risk: 'read',
        run: async ({ limit }, ctx) => {
          const store = env.memory()
          const all = await store.list({ workspace: ctx.workspace.root })
          return {
            memories: all.slice(0, limit).map(stored),
            total: all.length,
            paused: (await store.preferences()).paused,
          }
        },
      }),
      search: method({
        description: 'Finds the memories that best match some words, best first.',
        input: z.object({
          query: z.string().min(1).max(500),
          top_k: z.number().int().min(1).max(50).default(10),
        }),
        output: z.object({ memories: z.array(Stored) }),
        examples: [{ query: 'invoice folder', top_k: 5 }],
        risk: 'read',
        run: async ({ query, top_k }, ctx) => {
          const found = await env.memory().list({ query, workspace: ctx.workspace.root })
          return {
            memories: found
              .filter((m) => appliesIn(m, ctx.workspace.root))
              .slice(0, top_k)
              .map(stored),
          }
        },
      }),
    },
  })
}
