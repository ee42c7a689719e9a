import { useEffect, useId, useRef } from 'react'
import type { ApprovalDecision } from '../../../shared/ipc'
import { Icon } from '../components/Icon'
import { ARG_LIMIT, DECISIONS, RISK_TEXT, shownArgs } from './approvalText'
import type { PendingApproval } from './chatStore'

const cut = (text: string) => (text.length > ARG_LIMIT ? `${text.slice(0, ARG_LIMIT - 1)}…` : text)

const deadline = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })

/**
 * A call the model wants to make waits for the user: the card shows the exact call (toolset, method,
 * arguments, risk) and what it acts on (page and element, recipients, MCP server). Focus moves to the card when it appears so the keyboard and screen readers get it.
 */
export function ApprovalCard({
  pending,
  onAnswer,
}: {
  pending: PendingApproval
  onAnswer(decision: ApprovalDecision): void
}) {
  const id = useId()
  const card = useRef<HTMLDivElement>(null)
  const { call, answer } = pending
  useEffect(() => {
    card.current?.focus()
  }, [])
  const args = shownArgs(call.args)
  return (
    <div
      ref={card}
      className="approval"
      role="alertdialog"
      aria-modal="false"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-call`}
      tabIndex={-1}
      data-testid="approval-card"
      data-risk={call.risk}
    >
      <p id={`${id}-title`} className="approval-title">
        <Icon name="alert" size={16} /> Allow this action?
      </p>
      <div id={`${id}-call`} className="approval-call">
        <p className="approval-name">
          <code>{call.toolset}</code> <span aria-hidden="true">›</span> <code>{call.method}</code>
          <span className={`approval-risk risk-${call.risk}`}>{RISK_TEXT[call.risk]}</span>
        </p>
        {call.target && call.target.length > 0 && (
          <dl className="approval-args approval-target" aria-label="What it acts on">
            {call.target.map((touch, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a label (Element) may repeat
              <div key={index} className="approval-arg">
                <dt>{touch.label}</dt>
                <dd title={touch.value.length > ARG_LIMIT ? touch.value : undefined}>{cut(touch.value)}</dd>
              </div>
            ))}
          </dl>
        )}
        {args.length > 0 ? (
          <dl className="approval-args" aria-label="Arguments">
            {args.map((arg) => (
              <div key={arg.name} className="approval-arg">
                <dt>{arg.name}</dt>
                <dd title={arg.full}>{arg.text}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="approval-noargs">No arguments.</p>
        )}
      </div>
      <div className="approval-actions">
        {DECISIONS.map(({ decision, label }) => (
          <button
            key={decision}
            type="button"
            className={decision === 'once' ? 'button' : 'button secondary'}
            disabled={answer !== undefined}
            onClick={() => onAnswer(decision)}
          >
            {label}
          </button>
        ))}
      </div>
      <p className="approval-deadline">Without an answer it is denied at {deadline(call.expiresAt)}.</p>
    </div>
  )
}

/** Why the last card went away without an answer (a timeout), until dismissed or the next message. */
export function ApprovalNote({ text, onDismiss }: { text: string; onDismiss(): void }) {
  return (
    <div className="approval-note" role="status">
      <Icon name="info" size={16} />
      <span>{text}</span>
      <button type="button" className="icon-button" aria-label="Dismiss note" onClick={onDismiss}>
        <Icon name="close" size={14} />
      </button>
    </div>
  )
}
