import { randomUUID } from 'node:crypto'
import type { ApprovalCall, ApprovalDecision } from '../../../shared/ipc'
import type { ApprovalGate, ApprovalRequest } from '../../tools'
import { type AutoApprove, createApprovalGate, maskArgs } from '../approvals'
import { withMemoryProposals } from './memoryProposals'
import type { ChatRunDeps } from './runEnvironment'

const DEFAULT_TIMEOUT_SECONDS = 120

interface Pending {
  runId: string
  resolve: (decision: ApprovalDecision, text?: string) => void
}

/** What the chat service tells the window about a pending approval. */
export interface ApprovalSink {
  asked(call: ApprovalCall): void
  ended(approvalId: string, outcome: 'allowed' | 'denied'): void
}

/** The grants a conversation already has (from its file) and how a new one is saved with it. */
export interface ConversationGrants {
  stored: readonly string[]
  save(key: string): Promise<void>
}

/**
 * The approvals of the chat service: one gate per run, cards answered through `chat.approve`,
 * "always allow in this conversation" kept per conversation (saved with it by `grants.save`).
 */
export function createRunApprovals(deps: ChatRunDeps) {
  const pending = new Map<string, Pending>()
  const grants = new Map<string, Set<string>>()

  return {
    /** The gate of a run in a conversation: `ask` shows a card and waits. */
    interactive(
      runId: string,
      conversationId: string,
      sink: ApprovalSink,
      saved?: ConversationGrants,
    ): ApprovalGate | undefined {
      const settings = deps.approvals
      const timeoutSeconds = () => settings?.().timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS
      const card = (call: Omit<ApprovalCall, 'approvalId' | 'expiresAt'>, signal: AbortSignal) =>
        new Promise<{ decision: ApprovalDecision; text?: string }>((resolve) => {
          const approvalId = randomUUID()
          const expiresAt = new Date(Date.now() + timeoutSeconds() * 1000).toISOString()
          const finish = (decision: ApprovalDecision, text?: string) => {
            if (!pending.delete(approvalId)) return
            sink.ended(approvalId, decision === 'deny' ? 'denied' : 'allowed')
            resolve(text === undefined ? { decision } : { decision, text })
          }
          pending.set(approvalId, { runId, resolve: finish })
          // Timeout or the run stopped: the gate has already denied; the card goes away.
          signal.addEventListener('abort', () => finish('deny'), { once: true })
          sink.asked({ ...call, approvalId, expiresAt })
        })
      const callOf = (request: ApprovalRequest) => ({
        toolset: request.toolset,
        method: request.method,
        name: request.name,
        risk: request.risk,
        args: maskArgs(request.args),
        target: (request.target ?? []).map((t) => ({
          label: t.label,
          value: maskArgs({ v: t.value }).v as string,
        })),
      })
      let gate: ApprovalGate | undefined
      if (settings) {
        const granted = grants.get(conversationId) ?? new Set<string>()
        for (const key of saved?.stored ?? []) granted.add(key)
        grants.set(conversationId, granted)
        gate = createApprovalGate({
          settings,
          granted,
          ...(saved ? { onGrant: (key: string) => saved.save(key) } : {}),
          ...(deps.allowEverywhere ? { allowEverywhere: deps.allowEverywhere } : {}),
          onDecision: (entry) =>
            deps.logger?.info('approval', { call: entry.request.name, outcome: entry.outcome, by: entry.by }),
          ask: async (request, signal) => (await card(callOf(request), signal)).decision,
        })
      }
      if (!deps.memory) return gate
      return withMemoryProposals({
        store: deps.memory,
        workspaceRoot: () => deps.workspace().root,
        inner: gate,
        timeoutSeconds,
        ask: (request, memory, signal) => card({ ...callOf(request), memory }, signal),
      })
    },
    /** The gate of a run nobody can be asked in (the bridge): `ask` becomes the non-interactive level. */
    nonInteractive(level?: AutoApprove): ApprovalGate | undefined {
      const settings = deps.approvals
      const gate = settings
        ? createApprovalGate({
            settings,
            granted: new Set(),
            autoApprove: level ?? settings().nonInteractive,
            onDecision: (entry) =>
              deps.logger?.info('approval', {
                call: entry.request.name,
                outcome: entry.outcome,
                by: entry.by,
              }),
          })
        : undefined
      if (!deps.memory) return gate
      return withMemoryProposals({
        store: deps.memory,
        workspaceRoot: () => deps.workspace().root,
        inner: gate,
        timeoutSeconds: () => settings?.().timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
      })
    },
    answer(runId: string, approvalId: string, decision: ApprovalDecision, text?: string): boolean {
      const entry = pending.get(approvalId)
      if (!entry || entry.runId !== runId) return false
      entry.resolve(decision, text)
      return true
    },
  }
}
