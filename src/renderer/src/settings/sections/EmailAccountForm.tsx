import { useMutation } from '@tanstack/react-query'
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react'
import type { EmailAccount } from '../../../../shared/settings'
import { Field } from '../../components/Field'
import { useToolsApi } from '../toolsApi'
import {
  ACCOUNT_FIELD_ORDER,
  type AccountErrors,
  type AccountFields,
  accountErrors,
} from './emailAccountCheck'

export interface AccountDraft {
  name: string
  account: EmailAccount
}

/** Where a field's error shows: once it was changed, or everywhere after a Save or a test. */
function useShownErrors(errors: AccountErrors) {
  const [touched, setTouched] = useState<ReadonlySet<keyof AccountFields>>(new Set())
  const [all, setAll] = useState(false)
  return {
    touch: (field: keyof AccountFields) => setTouched((t) => (t.has(field) ? t : new Set([...t, field]))),
    showAll: () => setAll(true),
    of: (field: keyof AccountFields) => (all || touched.has(field) ? errors[field] : undefined),
  }
}

/**
 * One account's fields, each checked as it is typed; Save shows every error at once and focuses the
 * first. The password box is write-only: empty keeps the stored password, and what is typed is sent
 * once on save (or with Test connection) and never shown again.
 */
export function EmailAccountForm({
  initial,
  isNew,
  passwordStored = false,
  onSave,
  onCancel,
}: {
  initial: AccountDraft
  isNew: boolean
  /** The account has a password in the vault: an empty box keeps it. */
  passwordStored?: boolean
  onSave(draft: AccountDraft, password: string): Promise<void>
  onCancel(): void
}) {
  const tools = useToolsApi()
  const id = useId()
  const form = useRef<HTMLFormElement>(null)
  const [draft, setDraft] = useState(initial)
  const [fields, setFields] = useState<AccountFields>({
    name: initial.name,
    user: initial.account.user,
    from: initial.account.from,
    imapHost: initial.account.imap.host,
    imapPort: String(initial.account.imap.port),
    smtpHost: initial.account.smtp.host,
    smtpPort: String(initial.account.smtp.port),
    password: '',
  })
  const [error, setError] = useState<string>()
  const errors = accountErrors(fields, passwordStored)
  const shown = useShownErrors(errors)
  const a = draft.account
  const set = (patch: Partial<EmailAccount>) => setDraft({ ...draft, account: { ...a, ...patch } })
  const field = (name: keyof AccountFields) => ({
    name,
    value: fields[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      setFields({ ...fields, [name]: event.currentTarget.value })
      shown.touch(name)
    },
  })
  const account = (): EmailAccount => ({
    ...a,
    user: fields.user.trim(),
    from: fields.from.trim(),
    imap: { ...a.imap, host: fields.imapHost.trim(), port: Number(fields.imapPort) },
    smtp: { ...a.smtp, host: fields.smtpHost.trim(), port: Number(fields.smtpPort) },
  })
  /** Shows every error and focuses the first; true when there is none (`except`: not needed here). */
  const checked = (except: readonly (keyof AccountFields)[] = []) => {
    const first = ACCOUNT_FIELD_ORDER.find((f) => errors[f] && !except.includes(f))
    if (!first) return true
    shown.showAll()
    form.current?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus()
    return false
  }
  const test = useMutation({
    mutationFn: () =>
      tools.testEmail({
        name: fields.name,
        account: account(),
        ...(fields.password ? { password: fields.password } : {}),
      }),
  })
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(undefined)
    if (!checked()) return
    try {
      await onSave({ name: fields.name, account: account() }, fields.password)
      setFields((f) => ({ ...f, password: '' }))
    } catch (e) {
      setError((e as Error).message)
    }
  }
  return (
    <form
      ref={form}
      onSubmit={submit}
      noValidate
      aria-label={isNew ? 'New e-mail account' : `E-mail account ${draft.name}`}
    >
      <div className="field-grid">
        <Field
          label="Account name"
          hint="e.g. work: what the agent's account argument takes."
          error={shown.of('name')}
        >
          <input className="input" disabled={!isNew} autoComplete="off" {...field('name')} />
        </Field>
        <Field label="User name" error={shown.of('user')}>
          <input className="input" autoComplete="off" {...field('user')} />
        </Field>
        <Field label="From address" error={shown.of('from')}>
          <input className="input" type="email" {...field('from')} />
        </Field>
        <Field label="Display name">
          <input
            className="input"
            value={a.displayName}
            onChange={(e) => set({ displayName: e.target.value })}
          />
        </Field>
        <Field label="IMAP host" error={shown.of('imapHost')}>
          <input className="input" spellCheck={false} {...field('imapHost')} />
        </Field>
        <Field label="IMAP port" error={shown.of('imapPort')}>
          <input className="input" inputMode="numeric" {...field('imapPort')} />
        </Field>
        <Field label="SMTP host" error={shown.of('smtpHost')}>
          <input className="input" spellCheck={false} {...field('smtpHost')} />
        </Field>
        <Field label="SMTP port" error={shown.of('smtpPort')}>
          <input className="input" inputMode="numeric" {...field('smtpPort')} />
        </Field>
        <Field
          label="Password"
          hint={passwordStored ? 'Empty: keep the stored password. Never shown again.' : 'Stored encrypted.'}
          error={shown.of('password')}
        >
          <input className="input" type="password" autoComplete="new-password" {...field('password')} />
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
          disabled={test.isPending}
          onClick={() => {
            if (checked(['password'])) test.mutate()
          }}
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
        <button type="submit" className="button primary">
          Save account
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
