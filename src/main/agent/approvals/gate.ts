import type { ApprovalSettings } from '../../../shared/settings'
import type { ApprovalBy, ApprovalGate, ApprovalRequest, ApprovalVerdict } from '../../tools'
import { type AutoApprove, autoDecision, policyFor, ruleKey } from './policy'

/** The user's answer on an approval card. */
export type ApprovalDecision = 'once' | 'conversation' | 'everywhere' | 'deny'

export interface ApprovalLogEntry {
  request: ApprovalRequest
  outcome: 'allowed' | 'denied'
  /** `policy` (a rule or the risk level), `user`, `timeout`, `non-interactive`. */
  by: ApprovalBy
}

export interface ApprovalGateOptions {
  settings: () => Pick<ApprovalSettings, 'read' | 'write' | 'external' | 'rules' | 'timeoutSeconds'>
  /** Tools the user allowed for this conversation ("always allow this tool in this conversation"). */
  granted: Set<string>
  /** Asks the user (the app's approval card); absent in non-interactive runs. */
  ask?: (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>
  /** Where nobody can be asked: what `ask` becomes (default `read`: only reading runs). */
  autoApprove?: AutoApprove
  /** "Always allow in this conversation": saves the grant with the conversation (it is in `granted` already). */
  onGrant?: (key: string) => Promise<void>
  /** "Always allow everywhere": stores a `toolset.method: allow` rule. */
  allowEverywhere?: (key: string) => Promise<void>
  onDecision?: (entry: ApprovalLogEntry) => void
}

export const DENIED_BY_USER = 'Denied by the user: this call was not run. Go on without it, or ask the user.'
const DENIED_BY_POLICY =
  'Denied by the approval settings: this call is not allowed. Go on without it, or tell the user.'
const DENIED_TIMEOUT = 'Denied: nobody approved this call in time, so it was not run. Go on without it.'
const deniedNonInteractive = (level: AutoApprove) =>
  `Denied: this run cannot ask the user, and its approval level (${level}) does not cover this call. ` +
  'Go on without it, or say in the answer what needs approval.'

function timeout(ms: number, signal: AbortSignal): { promise: Promise<'timeout'>; clear: () => void } {
  let timer: NodeJS.Timeout | undefined
  const promise = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms)
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true })
  })
  return { promise, clear: () => clearTimeout(timer) }
}

/**
 * The one approval gate of an agent run: asked by `invoke` after the arguments are validated and
 * before the method runs. Only the user's answer or the settings can allow a call; nothing in the
 * model's text or a tool's result reaches this function.
 */
export function createApprovalGate(options: ApprovalGateOptions): ApprovalGate {
  const decide = (request: ApprovalRequest, by: ApprovalLogEntry['by'], reason?: string): ApprovalVerdict => {
    options.onDecision?.({ request, outcome: reason === undefined ? 'allowed' : 'denied', by })
    return reason === undefined ? { allowed: true, by } : { allowed: false, reason, by }
  }

  return async (request, signal) => {
    const settings = options.settings()
    const policy = policyFor(settings, request, options.granted)
    if (policy === 'allow') return decide(request, 'policy')
    if (policy === 'deny') return decide(request, 'policy', DENIED_BY_POLICY)
    if (!options.ask) {
      const level = options.autoApprove ?? 'read'
      if (autoDecision(level, request.risk)) return decide(request, 'non-interactive')
      return decide(request, 'non-interactive', deniedNonInteractive(level))
    }
    const controller = new AbortController()
    const abort = () => controller.abort()
    signal.addEventListener('abort', abort, { once: true })
    const timer = timeout(settings.timeoutSeconds * 1000, controller.signal)
    try {
      const answer = await Promise.race([options.ask(request, controller.signal), timer.promise])
      if (answer === 'timeout') return decide(request, 'timeout', DENIED_TIMEOUT)
      if (answer === 'deny') return decide(request, 'user', DENIED_BY_USER)
      if (answer === 'conversation') {
        options.granted.add(ruleKey(request))
        await options.onGrant?.(ruleKey(request))
      }
      if (answer === 'everywhere') await options.allowEverywhere?.(ruleKey(request))
      return decide(request, 'user')
    } finally {
      timer.clear()
      controller.abort()
      signal.removeEventListener('abort', abort)
    }
  }
}
