import type { ApprovalCall, ApprovalDecision } from '../../../shared/ipc'
import { checkMemoryProposal, type MemoryStore, nearestByMeaning, selectMemories } from '../../memory'
import type { ApprovalGate, ApprovalRequest } from '../../tools'
import type { RunAgentOptions } from '../types'

/** The user's answer on a memory card: Keep (`once`), Keep after Edit (`once` with the text), Don't (`deny`). */
export interface MemoryCardAnswer {
  decision: ApprovalDecision
  text?: string | undefined
}

export interface MemoryProposalOptions {
  store: MemoryStore
  workspaceRoot: () => string
  /** The run's approval gate for every other call. */
  inner?: ApprovalGate | undefined
  /** Shows the card and waits; absent where nobody can be asked (the bridge, `bureau chat`). */
  ask?: (
    request: ApprovalRequest,
    memory: NonNullable<ApprovalCall['memory']>,
    signal: AbortSignal,
  ) => Promise<MemoryCardAnswer>
  timeoutSeconds: () => number
}

export const MEMORY_DECLINED =
  'The user chose not to keep this memory: nothing was stored. Do not propose it again in this conversation.'
const MEMORY_UNASKED =
  'Not stored: this run cannot ask the user to confirm a memory. Tell the user what you would remember; ' +
  'they can add it in Settings → Memory or turn on "save without asking".'
const MEMORY_TIMEOUT = 'Not stored: nobody answered the memory card in time.'

const isProposal = (request: ApprovalRequest) =>
  request.toolset === 'memory' && (request.method === 'remember' || request.method === 'update')

/**
 * The gate of a run with memory: a model's `remember` or `update` is checked (paused, close memories
 * shown to the model instead), then stored without asking when the user chose so, else put to the user
 * as a card; an edited text replaces the model's. Every other call goes to the run's own gate.
 */
export function withMemoryProposals(options: MemoryProposalOptions): ApprovalGate {
  return async (request, signal) => {
    if (!isProposal(request)) return options.inner ? options.inner(request, signal) : { allowed: true }
    const args = request.args as {
      text?: string
      scope?: 'everywhere' | 'workspace'
      distinct?: boolean
      id?: string
    }
    if (request.method === 'remember') {
      const refusal = await checkMemoryProposal(
        options.store,
        {
          text: args.text ?? '',
          ...(args.scope ? { scope: args.scope } : {}),
          ...(args.distinct ? { distinct: true } : {}),
        },
        options.workspaceRoot(),
      )
      if (refusal) return { allowed: false, reason: refusal, by: 'policy' }
    }
    const preferences = await options.store.preferences()
    if (preferences.paused) {
      return { allowed: false, reason: 'Memory is paused by the user: nothing is stored.', by: 'policy' }
    }
    if (preferences.saveWithoutAsking) return { allowed: true, by: 'policy' }
    if (!options.ask) return { allowed: false, reason: MEMORY_UNASKED, by: 'non-interactive' }
    let before: string | undefined
    if (request.method === 'update' && args.id) {
      before = await options.store.get(args.id).then(
        (memory) => memory.text,
        () => undefined,
      )
      if (before === undefined) return { allowed: true, by: 'policy' } // the method reports the unknown id
    }
    const card = {
      text: args.text ?? before ?? '',
      scope: args.scope ?? 'everywhere',
      ...(before !== undefined ? { before } : {}),
    }
    const controller = new AbortController()
    const stop = () => controller.abort()
    signal.addEventListener('abort', stop, { once: true })
    let timer: NodeJS.Timeout | undefined
    try {
      const answer = await Promise.race([
        options.ask(request, card, controller.signal),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), options.timeoutSeconds() * 1000)
        }),
      ])
      if (answer === 'timeout') return { allowed: false, reason: MEMORY_TIMEOUT, by: 'timeout' }
      if (answer.decision === 'deny') return { allowed: false, reason: MEMORY_DECLINED, by: 'user' }
      const text = answer.text?.trim()
      return text && text !== card.text
        ? { allowed: true, by: 'user', args: { ...request.args, text } }
        : { allowed: true, by: 'user' }
    } finally {
      clearTimeout(timer)
      controller.abort()
      signal.removeEventListener('abort', stop)
    }
  }
}

/**
 * The memory block of one conversation turn, chosen once before the run (so every call of the run sends
 * the same system prompt). A store that cannot be read costs the turn its memories, never the answer.
 */
export async function memoryForTurn(
  store: MemoryStore | undefined,
  prompt: string,
  workspaceRoot: string | undefined,
  onError?: (error: unknown) => void,
): Promise<RunAgentOptions['memory']> {
  if (!store) return undefined
  try {
    const selection = await selectMemories(await store.snapshot(), {
      query: prompt,
      workspace: workspaceRoot,
      nearest: await nearestByMeaning(store, prompt, onError),
    })
    return selection.used.length > 0 ? selection : undefined
  } catch (error) {
    onError?.(error)
    return undefined
  }
}
