import type { AgentStep, AttachmentMeta } from '../../shared/ipc'
import type { UsedMemory } from '../../shared/memory'
import type { InteractionMode } from '../../shared/settings'
import type { Anonymizer, LlmClient, Usage } from '../llm'
import type { Logger } from '../platform'
import type { ApprovalGate, ToolOrigin, Toolset, ToolsetSource, UrlGuard, WorkspaceSource } from '../tools'
import type { AttachmentConverter } from './attachments/converterPort'
import type { CustomInstructions } from './instructions/customInstructions'

export type { AgentStep, AttachmentMeta }

/** A user file as it arrives: original bytes, converted and saved by the agent. */
export interface AgentAttachment {
  name: string
  bytes: Uint8Array
  mimeType?: string
}

/** An earlier turn of the conversation, replayed before the new prompt. */
export interface HistoryTurn {
  role: 'user' | 'assistant'
  content: string
  /** Assistant turns: the toolsets its steps used (they stay open in API mode). */
  toolsets?: readonly string[]
}

/** How tool calls travel: the provider's native tool calls, or one JSON object per reply. */
export type ToolProtocol = 'native' | 'json'

export type AgentEvent =
  /** Text for the user as it streams (the final `done` message is sent through here too). */
  | { type: 'text'; text: string }
  | { type: 'step'; phase: 'started' | 'finished'; step: AgentStep }
  /** A sub-agent paused with a question; answer with `provide_subagent_input` or `AgentRun.answer`. */
  | { type: 'question'; sessionId: string; toolset: string; question: string }
  | { type: 'attachment'; index: number; attachment: AttachmentMeta }
  /** Something the user should know that is not part of the answer (a file that could not be read). */
  | { type: 'notice'; message: string }

/**
 * How a run ended. `done`: the model called done; `answered`: it answered without tools;
 * `budget`: maxIterations spent; `repeated_failure`: one method failed the same way three times;
 * `failed`: the model could not be reached or answered garbage; `cancelled`: the signal fired.
 */
export type AgentStatus = 'done' | 'answered' | 'budget' | 'repeated_failure' | 'failed' | 'cancelled'

export interface AgentUsage {
  inputTokens: number
  outputTokens: number
  cachedInputTokens: number
}

export interface AgentResult {
  status: AgentStatus
  /** The answer: the `done` message, the direct answer, or why the run stopped. */
  message: string
  /** Agent paths the model returned with `done`. */
  attachments: string[]
  steps: AgentStep[]
  usage: AgentUsage
  /** Everything streamed to the user, in order (narration between tool calls, then the message). */
  text: string
  /** The attachments given to the run, with their conversion status and where they were saved. */
  received: AttachmentMeta[]
  /** Short, user-facing error for `failed` and `repeated_failure`. */
  error?: string
}

export interface AgentClock {
  /** IANA zone; an unknown one falls back to UTC. */
  timeZone: string
  /** Default: the system clock. */
  now?: () => Date
}

export interface RunAgentOptions {
  prompt: string
  /** The provider client (`createLlmClient` / the provider service). */
  model: LlmClient
  /** The toolsets whose methods the agent calls directly, in manual order. */
  toolsets: ToolsetSource
  /** Toolsets the agent may delegate to, each in its own isolated sub-agent. */
  subagents?: readonly Toolset[]
  attachments?: readonly AgentAttachment[]
  /** Earlier turns of the conversation. */
  history?: readonly HistoryTurn[]
  /** Model calls allowed (default 50). */
  maxIterations?: number
  signal?: AbortSignal
  onEvent?: (event: AgentEvent) => void
  /** The sandbox every file tool works in (or a factory called on first use). */
  workspace?: WorkspaceSource
  converter?: AttachmentConverter
  /** Characters of converted attachments per request, split equally per file (default 30,000). */
  attachmentBudgetChars?: number
  /** Default: the provider's setting, else by context window. */
  interactionMode?: InteractionMode
  /** Default: native when the provider supports tools. */
  toolProtocol?: ToolProtocol
  /** Replaces names and keys before anything reaches the model; shared with the sub-agents. */
  anonymizer?: Anonymizer
  urlGuard?: UrlGuard
  logger?: Logger
  /** Longest tool result fed back to the model, in characters (default 16,000). */
  maxToolResultChars?: number
  /** The user's global and per-conversation instructions, one section at the end of the system prompt. */
  instructions?: CustomInstructions
  /** Today's date and the user's time zone, told to the model (calendars, "next Tuesday"); absent: not told. */
  clock?: AgentClock
  /** The approval gate (`createApprovalGate`): asked before each method of the run and its sub-agents. */
  approve?: ApprovalGate
  /**
   * The memory block chosen for this turn (`selectMemories`): added after the instructions, the same bytes
   * for every call of the run; the memories it holds become the run's first step.
   */
  memory?: { block: string; used: readonly UsedMemory[]; tokens: number }
  /** The conversation the run belongs to: tools that record where something came from name it. */
  origin?: ToolOrigin | undefined
}

export function emptyUsage(): AgentUsage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }
}

export function addUsage(total: AgentUsage, usage: Usage | AgentUsage | undefined): void {
  if (!usage) return
  total.inputTokens += usage.inputTokens
  total.outputTokens += usage.outputTokens
  total.cachedInputTokens += usage.cachedInputTokens ?? 0
}
