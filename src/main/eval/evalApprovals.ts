import { ApprovalSettings } from '../../shared/settings'
import { createApprovalGate } from '../agent'
import type { ApprovalGate } from '../tools'

/**
 * The approval gate of an eval run. An eval cannot ask anyone, and everything it can reach is the
 * harness's own (a temp workspace, the local test site, the task's Dovecot and the SMTP sink that files
 * sent mail into it, the task's MCP servers), so it runs with the default policy and the non-interactive level `all`: an `ask` (an MCP tool
 * without a read-only hint, a browser click) runs, and is logged in the step as approved non-interactively.
 * The user's own approval rules are not used, so every user's scores are comparable.
 */
export function evalApprovalGate(): ApprovalGate {
  const settings = ApprovalSettings.parse({})
  return createApprovalGate({ settings: () => settings, granted: new Set(), autoApprove: 'all' })
}
