import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import {
  type CalendarAccount,
  CalendarAccount as CalendarAccountSchema,
  calendarPasswordSecret,
  type PublicSettings,
} from '../../../../shared/settings'
import { Field } from '../../components/Field'
import { useToolsApi } from '../toolsApi'
import { useSecretMutations, useUpdateSettings } from '../useSettings'

interface Draft {
  name: string
  account: CalendarAccount
}

/** One CalDAV account's fields; the password box is write-only (empty keeps the stored one). */
function CalendarAccountForm({
  initial,
  isNew,
  onSave,
  onCancel,
}: {
  initial: Draft
  isNew: boolean
  onSave(draft: Draft, password: string): Promise<void>
  onCancel(): void
}) {
  const tools = useToolsApi()
  const [draft, setDraft] = useState(initial)
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string>()
  const a = draft.account
  const set = (patch: Partial<CalendarAccount>) => setDraft({ ...draft, account: { ...a, ...patch } })
  const test = useMutation({
    mutationFn: () => tools.testCalendar({ name: draft.name, account: a, ...(password ? { password } : {}) }),
  })
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(undefined)
    try {
      await onSave(draft, password)
      setPassword('')
    } catch (e) {
      setError((e as Error).message)
    }
  }
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={isNew ? 'New calendar account' : `Calendar account ${draft.name}`}
    >
      <div className="field-grid">
        <Field label="Account name" hint="e.g. work: calendars are then named work:<calendar>.">
          <input
            className="input"
            value={draft.name}
            disabled={!isNew}
            onChange={(e) => setDraft({ ...draft, name: e.target.value.trim() })}
          />
        </Field>
        <Field label="Server address" hint="https://… (the server, or its calendar home)">
          <input
            className="input"
            type="url"
            value={a.url}
            onChange={(e) => set({ url: e.target.value.trim() })}
          />
        </Field>
        <Field label="User name">
          <input
            className="input"
            autoComplete="off"
            value={a.user}
            onChange={(e) => set({ user: e.target.value })}
          />
        </Field>
        <Field
          label="Password"
          hint={isNew ? 'Stored encrypted.' : 'Empty: keep the stored password. Never shown again.'}
        >
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
      </div>
      <div className="test-connection">
        <button
          type="button"
          className="button secondary"
          disabled={test.isPending || !draft.name}
          onClick={() => test.mutate()}
        >
          Test connection
        </button>
        <span role="status" className="test-result">
          {test.isError && <span className="error-text">{test.error.message}</span>}
          {test.data && (
            <span className={`test-line ${test.data.ok ? 'ok-text' : 'error-text'}`}>
              CalDAV: {test.data.message}
            </span>
          )}
        </span>
      </div>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div className="settings-actions">
        <button type="submit" className="button primary" disabled={!draft.name}>
          Save account
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}

/** The calendar toolset's time zone and CalDAV accounts; passwords encrypted and never shown. */
export function CalendarSection({ settings }: { settings: PublicSettings }) {
  const { accounts, timeZone } = settings.calendar
  const names = Object.keys(accounts).sort()
  const update = useUpdateSettings()
  const { set } = useSecretMutations()
  const [editing, setEditing] = useState<{ draft: Draft; isNew: boolean }>()
  const [zone, setZone] = useState(timeZone)
  const systemZone = Intl.DateTimeFormat().resolvedOptions().timeZone

  const save = async (draft: Draft, password: string) => {
    await update.mutateAsync({ calendar: { accounts: { [draft.name]: draft.account } } })
    if (password) await set.mutateAsync({ name: calendarPasswordSecret(draft.name), value: password })
    setEditing(undefined)
  }
  // The host removes the account's password in the same update.
  const remove = (name: string) => update.mutateAsync({ calendar: { accounts: { [name]: null } } })

  return (
    <section className="settings-card" aria-labelledby="calendar-title" id="calendar">
      <header>
        <h2 id="calendar-title">Calendar</h2>
        <p className="muted">
          Calendars are .ics files in the workspace (/calendar/…) and the CalDAV accounts below.
        </p>
      </header>
      <Field
        label="Time zone"
        hint={`IANA name such as Europe/Paris; empty: this computer's (${systemZone}).`}
      >
        <input
          className="input"
          value={zone}
          onChange={(e) => setZone(e.target.value)}
          onBlur={() => zone.trim() !== timeZone && update.mutate({ calendar: { timeZone: zone.trim() } })}
        />
      </Field>
      {names.length === 0 && <p className="muted">No CalDAV accounts yet.</p>}
      <ul className="email-accounts" aria-label="Calendar accounts">
        {names.map((name) => (
          <li key={name} className="email-account">
            <div className="email-account-info">
              <strong>{name}</strong>
              <span className="muted">
                {' '}
                {accounts[name]?.user} · {accounts[name]?.url}
              </span>
              <span className="email-account-badges">
                {settings.secrets[calendarPasswordSecret(name)]?.set ? (
                  <span className="email-badge" data-testid="calendar-password-status">
                    password set
                  </span>
                ) : (
                  <span className="email-badge warning" data-testid="calendar-password-status">
                    no password
                  </span>
                )}
              </span>
            </div>
            <div className="email-account-actions">
              <button
                type="button"
                className="button secondary"
                onClick={() => setEditing({ draft: { name, account: accounts[name]! }, isNew: false })}
              >
                Edit
              </button>
              <button type="button" className="button secondary" onClick={() => void remove(name)}>
                Remove
              </button>
            </div>
          </li>
        ))}
      </ul>
      {editing ? (
        <CalendarAccountForm
          key={editing.draft.name || 'new'}
          initial={editing.draft}
          isNew={editing.isNew}
          onSave={save}
          onCancel={() => setEditing(undefined)}
        />
      ) : (
        <button
          type="button"
          className="button secondary"
          onClick={() =>
            setEditing({ draft: { name: '', account: CalendarAccountSchema.parse({}) }, isNew: true })
          }
        >
          Add account
        </button>
      )}
    </section>
  )
}
