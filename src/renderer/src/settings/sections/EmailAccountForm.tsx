import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import type { EmailAccount } from '../../../../shared/settings'
import { Field } from '../../components/Field'
import { useToolsApi } from '../toolsApi'

export interface AccountDraft {
  name: string
  account: EmailAccount
}

const num = (text: string, fallback: number) => (/^\d+$/.test(text) ? Number(text) : fallback)

/**
 * One account's fields. The password box is write-only: empty keeps the stored password, and what
 * is typed is sent once on save (or with Test connection) and never shown again.
 */
export function EmailAccountForm({
  initial,
  isNew,
  onSave,
  onCancel,
}: {
  initial: AccountDraft
  isNew: boolean
  onSave(draft: AccountDraft, password: string): Promise<void>
  onCancel(): void
}) {
  const tools = useToolsApi()
  const id = useId()
  const [draft, setDraft] = useState(initial)
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string>()
  const a = draft.account
  const set = (patch: Partial<EmailAccount>) => setDraft({ ...draft, account: { ...a, ...patch } })
  const test = useMutation({
    mutationFn: () => tools.testEmail({ name: draft.name, account: a, ...(password ? { password } : {}) }),
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
      aria-label={isNew ? 'New e-mail account' : `E-mail account ${draft.name}`}
    >
      <div className="field-grid">
        <Field label="Account name" hint="e.g. work: what the agent's account argument takes.">
          <input
            className="input"
            value={draft.name}
            disabled={!isNew}
            onChange={(e) => setDraft({ ...draft, name: e.target.value.trim() })}
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
        <Field label="From address">
          <input
            className="input"
            type="email"
            value={a.from}
            onChange={(e) => set({ from: e.target.value })}
          />
        </Field>
        <Field label="Display name">
          <input
            className="input"
            value={a.displayName}
            onChange={(e) => set({ displayName: e.target.value })}
          />
        </Field>
        <Field label="IMAP host">
          <input
            className="input"
            value={a.imap.host}
            onChange={(e) => set({ imap: { ...a.imap, host: e.target.value } })}
          />
        </Field>
        <Field label="IMAP port">
          <input
            className="input"
            inputMode="numeric"
            value={String(a.imap.port)}
            onChange={(e) => set({ imap: { ...a.imap, port: num(e.target.value, a.imap.port) } })}
          />
        </Field>
        <Field label="SMTP host">
          <input
            className="input"
            value={a.smtp.host}
            onChange={(e) => set({ smtp: { ...a.smtp, host: e.target.value } })}
          />
        </Field>
        <Field label="SMTP port">
          <input
            className="input"
            inputMode="numeric"
            value={String(a.smtp.port)}
            onChange={(e) => set({ smtp: { ...a.smtp, port: num(e.target.value, a.smtp.port) } })}
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
      <label className="switch">
        <input
          type="checkbox"
          checked={a.imap.tls}
          onChange={(e) => set({ imap: { ...a.imap, tls: e.target.checked } })}
        />
        <span>IMAP over TLS (off: STARTTLS)</span>
      </label>
      <label className="switch">
        <input
          type="checkbox"
          checked={a.smtp.tls}
          onChange={(e) => set({ smtp: { ...a.smtp, tls: e.target.checked } })}
        />
        <span>SMTP over TLS (off: STARTTLS)</span>
      </label>
      <div className="test-connection">
        <button
          type="button"
          className="button secondary"
          disabled={test.isPending || !draft.name}
          onClick={() => test.mutate()}
        >
          Test connection
        </button>
        <span role="status" className="test-result" id={`${id}-test`}>
          {test.isError && <span className="error-text">{test.error.message}</span>}
          {test.data &&
            (['imap', 'smtp'] as const).map((k) => (
              <span key={k} className={`test-line ${test.data[k].ok ? 'ok-text' : 'error-text'}`}>
                {k.toUpperCase()}: {test.data[k].message}
              </span>
            ))}
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
