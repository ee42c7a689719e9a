import type {
  UnattendedDecision,
  UnattendedLevel,
  UnattendedRunInput,
  UnattendedRunResult,
} from '../../../shared/automations/unattended'
import type { ApprovalGate, Risk } from '../../tools'

export type { UnattendedDecision, UnattendedLevel, UnattendedRunInput, UnattendedRunResult }

const RANK: Record<Risk, number> = { read: 0, write: 1, external: 2 }
const LEVEL_RANK: Record<UnattendedLevel, number> = { none: 0, read: 0, write: 1, all: 2 }

/** The non-interactive level `ask` becomes inside the cap (`none` lets nothing through). */
export function autoApproveOf(level: UnattendedLevel): 'read' | 'write' | 'all' | undefined {
  return level === 'none' ? undefined : level
}

/**
 * The gate of a run nobody watches: a call above the run's level is denied even where the settings
 * allow it; inside the level, the settings (and the non-interactive policy for `ask`) decide. Every
 * decision is recorded.
 */
export function unattendedGate(
  level: UnattendedLevel,
  inner: ApprovalGate | undefined,
  record: (decision: UnattendedDecision) => void,
): ApprovalGate {
  return async (request, signal) => {
    const verdict =
      RANK[request.risk] > LEVEL_RANK[level]
        ? {
            allowed: false as const,
            reason:
              `Denied: this automation runs unattended at approval level "${level}", which does not cover ` +
              `${request.risk} calls. Go on without it and say in the answer what needs approval.`,
            by: 'non-interactive' as const,
          }
        : inner
          ? await inner(request, signal)
          : { allowed: true as const, by: 'policy' as const }
    record({
      call: request.name,
      risk: request.risk,
      outcome: verdict.allowed ? 'allowed' : 'denied',
      ...(verdict.allowed ? {} : { reason: verdict.reason }),
    })
    return verdict
  }
}
