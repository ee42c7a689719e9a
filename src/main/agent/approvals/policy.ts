import type { ApprovalPolicy, ApprovalSettings } from '../../../shared/settings'
import type { ApprovalRequest, Risk } from '../../tools'

/** Non-interactive runs (the bridge, `bureau chat`): the highest risk that runs without asking. */
export type AutoApprove = 'read' | 'write' | 'all'

const RANK: Record<Risk, number> = { read: 0, write: 1, external: 2 }
const AUTO_RANK: Record<AutoApprove, number> = { read: 0, write: 1, all: 2 }

/** `toolset.method`: the key of a method rule and of an "always allow" grant. */
export function ruleKey(request: Pick<ApprovalRequest, 'toolset' | 'method'>): string {
  return `${request.toolset}.${request.method}`
}

/**
 * The policy for one call: a `toolset.method` rule, else a `toolset` rule, else the risk level.
 * A grant of the conversation ("always allow this tool here") turns `ask` into `allow`, never `deny`.
 */
export function policyFor(
  settings: Pick<ApprovalSettings, 'read' | 'write' | 'external' | 'rules'>,
  request: ApprovalRequest,
  granted: ReadonlySet<string> = new Set(),
): ApprovalPolicy {
  const policy = settings.rules[ruleKey(request)] ?? settings.rules[request.toolset] ?? settings[request.risk]
  return policy === 'ask' && granted.has(ruleKey(request)) ? 'allow' : policy
}

/** What `ask` becomes where nobody can be asked: allowed up to the `--approve` level, else denied. */
export function autoDecision(level: AutoApprove, risk: Risk): boolean {
  return RANK[risk] <= AUTO_RANK[level]
}
