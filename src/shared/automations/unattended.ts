import type { ModelChoice } from '../ipc/routes/chat'

// What an automation's run asks of the chat service and gets back. Here rather than in the agent, so the
// automations service (a toolset, below the agent) and the chat service (which runs it) share one shape.

/**
 * The highest risk an unattended run may call: `read`, `write`, `all` (external too); `none` runs only
 * reads the settings allow without asking.
 */
export type UnattendedLevel = 'none' | 'read' | 'write' | 'all'

export interface UnattendedRunInput {
  /** The title of the run's own conversation. */
  title: string
  prompt: string
  attachments?: readonly { name: string; bytes: Uint8Array; mimeType?: string }[]
  /** Toolset names the run may use (default: every toolset the host provides). */
  toolsets?: readonly string[]
  /** Toolsets never offered (an automation cannot create automations). */
  withoutToolsets?: readonly string[]
  model?: ModelChoice
  approve: UnattendedLevel
  maxIterations: number
  /** After this the run is stopped and marked failed. */
  deadlineMs: number
  signal?: AbortSignal
  /**
   * A tool call made with the answer after a successful run (the result sent by e-mail), through the
   * run's own approval gate; its decision is recorded with the others.
   */
  deliver?: (answer: string) => { name: string; arguments: Record<string, unknown> }
}

/** What became of `deliver`'s call. */
export interface UnattendedDelivery {
  ok: boolean
  /** Refused by the approval gate (the decision is among `decisions`). */
  denied: boolean
  /** The call's receipt (JSON) or its error. */
  message: string
}

/** One approval decision of an unattended run, as the run's history shows it. */
export interface UnattendedDecision {
  call: string
  risk: 'read' | 'write' | 'external'
  outcome: 'allowed' | 'denied'
  reason?: string
}

export interface UnattendedRunResult {
  conversationId: string
  status: 'ok' | 'failed' | 'cancelled'
  /** The answer (or why it stopped). */
  message: string
  error?: string
  decisions: UnattendedDecision[]
  usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number }
  /** Agent paths the run returned. */
  files: string[]
  steps: number
  delivery?: UnattendedDelivery
}
