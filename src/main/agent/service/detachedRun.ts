import type { Usage } from '../../llm'
import type { ApprovalGate, Toolset } from '../../tools'
import type { AutoApprove } from '../approvals'
import { streamChat } from '../chatStream'
import { startAgent } from '../runAgent'
import type { AgentAttachment, AgentEvent, AgentResult, HistoryTurn } from '../types'
import { delegatable } from './delegatable'
import { memoryForTurn } from './memoryProposals'
import { type ChatRunDeps, runEnvironment } from './runEnvironment'

/** One request from outside any conversation (the OpenAI bridge): nothing is saved, no bus events. */
export interface DetachedRunInput {
  prompt: string
  attachments?: readonly AgentAttachment[]
  /** Earlier turns, as the caller sent them. */
  history?: readonly HistoryTurn[]
  /** Toolset names the agent may use (default: all the host provides). */
  toolsets?: readonly string[]
  signal?: AbortSignal
  onEvent?: (event: AgentEvent) => void
  /** What an `ask` of the approval settings becomes (default: the setting `approvals.nonInteractive`). */
  autoApprove?: AutoApprove
  /** Give the run the user's memories (the bridge token's setting; off by default). */
  useMemory?: boolean
}

export interface DetachedChatInput {
  prompt: string
  attachments?: readonly AgentAttachment[]
  history?: readonly HistoryTurn[]
  signal?: AbortSignal
  /** Attachment status changes and notices. */
  onEvent?: (event: AgentEvent) => void
  /** The latest (cumulative) usage the provider reported. */
  onUsage?: (usage: Usage) => void
}

export async function runDetached(
  deps: ChatRunDeps,
  toolsets: readonly Toolset[],
  input: DetachedRunInput,
  approve?: ApprovalGate,
): Promise<AgentResult> {
  const model = await deps.model()
  const memory = input.useMemory
    ? await memoryForTurn(deps.memory, input.prompt, deps.workspace().root, (error) =>
        deps.logger?.warn('memories not read', { error: String(error) }),
      )
    : undefined
  return startAgent({
    prompt: input.prompt,
    ...(memory ? { memory } : {}),
    model,
    toolsets,
    subagents: delegatable(deps.subagents?.(), toolsets),
    attachments: input.attachments ?? [],
    history: input.history ?? [],
    maxIterations: deps.maxIterations?.(),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.onEvent ? { onEvent: input.onEvent } : {}),
    ...runEnvironment(deps),
    ...(approve && { approve }),
  }).result
}

export async function* streamDetached(
  deps: ChatRunDeps,
  input: DetachedChatInput,
): AsyncGenerator<string, void, undefined> {
  const model = await deps.model()
  yield* streamChat({
    model,
    prompt: input.prompt,
    attachments: input.attachments ?? [],
    history: input.history ?? [],
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.onEvent ? { onEvent: input.onEvent } : {}),
    ...(input.onUsage ? { onUsage: input.onUsage } : {}),
    ...runEnvironment(deps),
  })
}
