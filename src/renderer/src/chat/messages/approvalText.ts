import type { ApprovalCall, ApprovalDecision } from '../../../../shared/ipc'

/** Longer argument values are cut on the card; the full value is the tooltip. */
export const ARG_LIMIT = 160

export interface ShownArg {
  name: string
  /** What the card shows (cut to ARG_LIMIT characters). */
  text: string
  /** The whole value, when `text` is cut. */
  full?: string | undefined
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value
  const json = JSON.stringify(value)
  return json === undefined ? String(value) : json
}

/** The call's arguments as name/value lines, in the order the model sent them. */
export function shownArgs(args: ApprovalCall['args'], limit = ARG_LIMIT): ShownArg[] {
  return Object.entries(args).map(([name, value]) => {
    const text = valueText(value)
    if (text.length <= limit) return { name, text }
    return { name, text: `${text.slice(0, limit - 1)}…`, full: text }
  })
}

export const RISK_TEXT: Record<ApprovalCall['risk'], string> = {
  read: 'Reads data',
  write: 'Changes files',
  external: 'Acts outside Bureau',
}

/** The card's buttons, in the schema's decision values; deny last so it is never the default. */
export const DECISIONS: ReadonlyArray<{ decision: ApprovalDecision; label: string }> = [
  { decision: 'once', label: 'Allow once' },
  { decision: 'conversation', label: 'Always allow in this conversation' },
  { decision: 'everywhere', label: 'Always allow' },
  { decision: 'deny', label: 'Deny' },
]
