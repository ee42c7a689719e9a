import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { AutomationRun, AutomationSummary } from '../../../shared/automations'
import { useNavigation } from '../app/navigationStore'
import { useChat } from '../chat/chatStore'
import { useConversationActions } from '../chat/conversations/conversationsApi'
import { queryKeys } from '../ipc/queryKeys'
import './automations.css'
import {
  useAutomationActions,
  useAutomationHistory,
  useAutomations,
  useSchedulePreview,
} from './automationsApi'

const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : '—')

function triggerText(summary: AutomationSummary): string {
  const trigger = summary.automation.trigger
  switch (trigger.kind) {
    case 'schedule':
      return `${trigger.text ?? trigger.cron} (${trigger.timeZone ?? 'UTC'})`
    case 'file':
      return `file ${trigger.glob} in ${trigger.folder}`
    case 'mail':
      return `mail in ${trigger.folder}${trigger.from ? ` from ${trigger.from}` : ''}`
    default:
      return 'by hand'
  }
}

function resultText(run: AutomationRun | undefined): string {
  if (!run) return 'never ran'
  if (run.status === 'denied') return `denied calls: ${run.denials.length}`
  return run.status
}

async function openConversation(conversations: ReturnType<typeof useConversationActions>, id: string) {
  const conversation = await conversations.get(id)
  useChat.getState().showConversation(conversation.id, conversation.messages, conversation.leafId ?? null)
  useNavigation.getState().go('chat')
}

function History({ id }: { id: string }) {
  const conversations = useConversationActions()
  const runs = useAutomationHistory(id)
  if (!runs.data) return <p className="muted">Loading…</p>
  if (runs.data.length === 0) return <p className="muted">No runs yet.</p>
  return (
    <ul className="automation-history">
      {runs.data.map((run) => (
        <li key={run.id}>
          <span className={`run-status run-${run.status}`}>{run.status}</span> {when(run.startedAt)} ·{' '}
          {run.cause}
          {run.error ? ` · ${run.error}` : ''}
          {run.denials.map((d) => (
            <div key={`${run.id}-${d.call}`} className="muted">
              denied {d.call}
            </div>
          ))}
          {run.conversationId && (
            <button
              type="button"
              className="button small secondary"
              onClick={() => void openConversation(conversations, run.conversationId!)}
            >
              Open conversation
            </button>
          )}
        </li>
      ))}
    </ul>
  )
}

function Editor({ onDone }: { onDone: () => void }) {
  const automations = useAutomationActions()
  const client = useQueryClient()
  const [name, setName] = useState('')
  const [prompt, setPrompt] = useState('')
  const [schedule, setSchedule] = useState('every weekday at 8:00')
  const [approve, setApprove] = useState<'none' | 'read' | 'write' | 'all'>('read')
  const preview = useSchedulePreview(schedule)
  const save = useMutation({
    mutationFn: () =>
      automations.create({
        name,
        prompt,
        trigger: schedule.trim() ? { kind: 'schedule', cron: schedule } : { kind: 'manual' },
        approve,
      }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.automations.all() })
      onDone()
    },
  })
  return (
    <form
      className="automation-editor"
      aria-label="New automation"
      onSubmit={(event) => {
        event.preventDefault()
        save.mutate()
      }}
    >
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label>
        Prompt
        <textarea value={prompt} onChange={(e) => setPrompt(e.target.value)} rows={3} required />
      </label>
      <label>
        Schedule (plain words or cron; empty: by hand only)
        <input value={schedule} onChange={(e) => setSchedule(e.target.value)} />
      </label>
      <p className="muted" aria-live="polite">
        {preview.error
          ? (preview.error as Error).message
          : preview.data
            ? `Next 5 runs: ${preview.data.next.map((d) => new Date(d).toLocaleString()).join('; ')}`
            : ''}
      </p>
      <label>
        Approval level when unattended
        <select value={approve} onChange={(e) => setApprove(e.target.value as typeof approve)}>
          <option value="none">none</option>
          <option value="read">read</option>
          <option value="write">write (workspace files)</option>
          <option value="all">all (also mail and web)</option>
        </select>
      </label>
      {save.error && <p role="alert">{(save.error as Error).message}</p>}
      <div className="automation-actions">
        <button type="submit" className="button primary">
          Save
        </button>
        <button type="button" className="button secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  )
}

export default function AutomationsPage() {
  const automations = useAutomationActions()
  const client = useQueryClient()
  const [editing, setEditing] = useState(false)
  const [open, setOpen] = useState<string | undefined>()
  const list = useAutomations(({ name, run, notified }) => {
    if (!notified && typeof Notification !== 'undefined' && Notification.permission === 'granted')
      new Notification(`Automation "${name}"`, {
        body: run.status === 'ok' ? run.message.slice(0, 200) : resultText(run),
      })
  })
  const toggle = useMutation({
    mutationFn: (input: { id: string; enabled: boolean }) => automations.setEnabled(input),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.automations.all() }),
  })
  const runNow = useMutation({
    mutationFn: (id: string) => automations.runNow(id),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.automations.all() }),
  })
  return (
    <section className="automations-page" aria-labelledby="automations-title">
      <header className="automations-header">
        <h1 id="automations-title">Automations</h1>
        <button type="button" className="button primary" onClick={() => setEditing(true)}>
          New automation
        </button>
      </header>
      {editing && <Editor onDone={() => setEditing(false)} />}
      {list.data?.length === 0 && (
        <p className="muted">No automations yet. Ask in a chat, e.g. “every Monday at 9, remind me…”.</p>
      )}
      <ul className="automation-list">
        {list.data?.map((summary) => {
          const { automation } = summary
          return (
            <li key={automation.id} className="automation-item">
              <div className="automation-row">
                <div>
                  <h2>{automation.name}</h2>
                  <p className="muted">
                    {triggerText(summary)} · approve {automation.approve}
                  </p>
                  <p>
                    Next run: {when(summary.nextRuns[0])} · Last result:{' '}
                    {summary.running ? 'running' : resultText(summary.lastRun)}
                  </p>
                </div>
                <label className="automation-switch">
                  <input
                    type="checkbox"
                    checked={automation.enabled}
                    onChange={(e) => toggle.mutate({ id: automation.id, enabled: e.target.checked })}
                  />
                  Enabled
                </label>
              </div>
              <div className="automation-actions">
                <button
                  type="button"
                  className="button small secondary"
                  onClick={() => runNow.mutate(automation.id)}
                >
                  Run now
                </button>
                <button
                  type="button"
                  className="button small secondary"
                  aria-expanded={open === automation.id}
                  onClick={() => setOpen(open === automation.id ? undefined : automation.id)}
                >
                  History
                </button>
              </div>
              {open === automation.id && <History id={automation.id} />}
            </li>
          )
        })}
      </ul>
    </section>
  )
}
