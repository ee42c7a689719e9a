import { useEffect, useId, useRef, useState } from 'react'
import type { ApprovalDecision } from '../../../../shared/ipc'
import { Icon } from '../../components/Icon'
import type { PendingApproval } from '../chatStore'
import { ARG_LIMIT, DECISIONS, RISK_TEXT, shownArgs } from './approvalText'

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
  onAnswer(decision: ApprovalDecision, text?: string): void
}) {
  if (pending.call.memory) return <MemoryProposalCard pending={pending} onAnswer={onAnswer} />
  return <CallCard pending={pending} onAnswer={onAnswer} />
}

/** "Bureau wants to remember: …" with Keep, Edit and Don't; Edit turns the text into a field. */
function MemoryProposalCard({
  pending,
  onAnswer,
}: {
  pending: PendingApproval
  onAnswer(decision: ApprovalDecision, text?: string): void
}) {
  const id = useId()
  const card = useRef<HTMLDivElement>(null)
  const { call, answer } = pending
  const memory = call.memory ?? { text: '', scope: 'everywhere' as const }
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(memory.text)
  useEffect(() => {
    card.current?.focus()
  }, [])
  return (
    <div
      ref={card}
      className="approval approval-memory"
      role="alertdialog"
      aria-modal="false"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      tabIndex={-1}
      data-testid="memory-card"
    >
      <p id={`${id}-title`} className="approval-title">
        <Icon name="info" size={16} />{' '}
        {memory.before ? 'Bureau wants to change a memory:' : 'Bureau wants to remember:'}
      </p>
      {memory.before && <p className="approval-noargs">Now: “{memory.before}”</p>}
      {editing ? (
        <textarea
          className="input"
          aria-label="Memory text"
          rows={2}
          maxLength={500}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      ) : (
        <p id={`${id}-text`} className="approval-name">
          “{memory.text}”
        </p>
      )}
      <p className="approval-deadline">
        {memory.scope === 'workspace' ? 'Only in this workspace.' : 'In every conversation.'} You can change
        or delete it in Settings → Memory.
      </p>
      <div className="approval-actions">
        <button
          type="button"
          className="button"
          disabled={answer !== undefined || !text.trim()}
          onClick={() => onAnswer('once', editing ? text.trim() : undefined)}
        >
          Keep
        </button>
        {!editing && (
          <button
            type="button"
            className="button secondary"
            disabled={answer !== undefined}
            onClick={() => setEditing(true)}
          >
            Edit
          </button>
        )}
        <button
          type="button"
          className="button secondary"
          disabled={answer !== undefined}
          onClick={() => onAnswer('deny')}
        >
          Don’t
        </button>
      </div>
    </div>
  )
}

function CallCard({
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
