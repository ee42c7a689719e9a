import './components.css'
import { useState } from 'react'
import type { AgentStep } from '../../../shared/ipc'
import { usePreview } from '../preview/previewStore'
import { isAreaReceipt, isSettingsReceipt } from './areaReceipt'
import { EventCard, isCalendarReceipt } from './EventCard'
import { formatDuration } from './formatDuration'
import { Icon } from './Icon'
import { ReceiptTable } from './ReceiptTable'
import { formatStepJson, StepResult } from './StepResult'

const statusLabels: Record<AgentStep['status'], string> = {
  running: 'Running',
  ok: 'Done',
  error: 'Failed',
  cancelled: 'Stopped',
}

/** A denied call did not fail: it was not run. Said for the user, not in the words meant for the model. */
const deniedText: Record<NonNullable<AgentStep['approval']>['by'], string> = {
  user: 'You denied this call: it was not run.',
  policy: 'Your approval settings deny this call (Settings → Approvals): it was not run.',
  timeout: 'Nobody answered the approval in time: the call was not run.',
  'non-interactive': 'This run could not ask you, so the call was not run.',
}

export const isDenied = (step: AgentStep) => step.approval?.outcome === 'denied'

function argsPreview(args: unknown, max = 90): string {
  if (args === null || typeof args !== 'object') return args === undefined ? '' : String(args)
  return Object.entries(args as Record<string, unknown>)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ')
    .slice(0, max)
}

function receiptPath(step: AgentStep): string | undefined {
  if (step.status !== 'ok' || !(isAreaReceipt(step.result) || isSettingsReceipt(step.result)))
    return undefined
  const args = step.args as { path?: unknown } | undefined
  return typeof args?.path === 'string' ? args.path : undefined
}

function StepItem({ step, steps }: { step: AgentStep; steps: readonly AgentStep[] }) {
  const receipt = isAreaReceipt(step.result) ? step.result : undefined
  const event = isCalendarReceipt(step.result) ? step.result : undefined
  const previewPath = receiptPath(step)
  const openPreview = usePreview((s) => s.open)
  const denied = step.approval?.outcome === 'denied' ? deniedText[step.approval.by] : undefined
  return (
    <li className={`step step-${denied ? 'denied' : step.status}`} data-testid="agent-step">
      <details>
        <summary>
          <span className="step-status" title={statusLabels[step.status]}>
            {step.status === 'running' ? (
              <Icon name="spinner" size={14} title="Running" />
            ) : denied ? (
              <Icon name="stop" size={14} title="Denied" />
            ) : step.status === 'ok' ? (
              <Icon name="check" size={14} title="Done" />
            ) : (
              <Icon
                name={step.status === 'error' ? 'alert' : 'stop'}
                size={14}
                title={statusLabels[step.status]}
              />
            )}
          </span>
          <code className="step-method">{step.method}</code>
          {step.subagent && <span className="step-subagent">in {step.subagent}</span>}
          <span className="step-args" title={argsPreview(step.args, 2000)}>
            {argsPreview(step.args)}
          </span>
          {step.durationMs !== undefined && (
            <span className="step-duration">{formatDuration(step.durationMs)}</span>
          )}
        </summary>
        <div className="step-body">
          <h4>Arguments</h4>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard */}
          <pre className="step-json" tabIndex={0}>
            {formatStepJson(step.args ?? {})}
          </pre>
          {denied ? (
            <p className="step-denied" role="note">
              {denied}
            </p>
          ) : (
            step.error && (
              <p className="step-error" role="note">
                {step.error}
              </p>
            )
          )}
          {step.result !== undefined && !receipt && !event && (
            <>
              <h4>Result</h4>
              <StepResult result={step.result} />
            </>
          )}
        </div>
      </details>
      {receipt && <ReceiptTable receipt={receipt} />}
      {event && <EventCard receipt={event} />}
      {previewPath && (
        <button
          type="button"
          className="ghost-button step-preview"
          onClick={() => openPreview(previewPath, steps)}
          aria-label={`Show the changes in ${previewPath.slice(previewPath.lastIndexOf('/') + 1)} in the preview`}
        >
          <Icon name="eye" size={14} /> Show in preview
        </button>
      )}
    </li>
  )
}

/**
 * Whether the timeline is open when the user has not toggled it: open while the run works and whenever a
 * step carries a receipt (the cells it changed, the event it stored), closed for a finished run without one. A pure function of
 * the run, so a finished answer looks the same however fast its steps arrived.
 */
export function timelineOpenByDefault(steps: readonly AgentStep[], running: boolean): boolean {
  return running || steps.some((s) => isAreaReceipt(s.result) || isCalendarReceipt(s.result))
}

/** The agent's steps for one answer, collapsible as a whole and one by one. */
export function StepTimeline({ steps, running }: { steps: AgentStep[]; running: boolean }) {
  const denied = steps.filter(isDenied).length
  const failed = steps.filter((s) => s.status === 'error' && !isDenied(s)).length
  // Only the user's own toggle overrides the default. A toggle event also fires when `open` changes
  // because the run ended; then the element already shows what was rendered, so it is not a choice.
  const [chosen, setChosen] = useState<boolean | undefined>(undefined)
  const open = chosen ?? timelineOpenByDefault(steps, running)
  return (
    <details
      className="timeline"
      open={open}
      onToggle={(e) => {
        if (e.currentTarget.open !== open) setChosen(e.currentTarget.open)
      }}
    >
      <summary>
        <Icon name="tool" size={14} />
        <span>
          {steps.length} step{steps.length === 1 ? '' : 's'}
          {denied > 0 && `, ${denied} denied`}
          {failed > 0 && `, ${failed} failed`}
        </span>
      </summary>
      <ol className="steps">
        {steps.map((step) => (
          <StepItem key={step.id} step={step} steps={steps} />
        ))}
      </ol>
    </details>
  )
}
