import { useState } from 'react'
import { EmailAccount, emailPasswordSecret, type PublicSettings } from '../../../../shared/settings'
import { useSecretMutations, useUpdateSettings } from '../useSettings'
import { type AccountDraft, EmailAccountForm } from './EmailAccountForm'

/** E-mail accounts for the email toolset: several, one default, passwords encrypted and never shown. */
export function EmailSection({ settings }: { settings: PublicSettings }) {
  const { accounts, defaultAccount } = settings.email
  const names = Object.keys(accounts).sort()
  const effectiveDefault = defaultAccount || names[0]
  const update = useUpdateSettings()
  const { set } = useSecretMutations()
  const [editing, setEditing] = useState<{ draft: AccountDraft; isNew: boolean }>()

  const save = async (draft: AccountDraft, password: string) => {
    await update.mutateAsync({
      email: {
        accounts: { [draft.name]: draft.account },
        ...(names.length === 0 ? { defaultAccount: draft.name } : {}),
      },
    })
    if (password) await set.mutateAsync({ name: emailPasswordSecret(draft.name), value: password })
    setEditing(undefined)
  }
  // The host removes the account's password in the same update.
  const remove = (name: string) =>
    update.mutateAsync({
      email: { accounts: { [name]: null }, ...(defaultAccount === name ? { defaultAccount: null } : {}) },
    })

  return (
    <section className="settings-card" aria-labelledby="email-title" id="email">
      <header>
        <h2 id="email-title">E-mail</h2>
        <p className="muted">Accounts the agent reads and sends mail with (IMAP and SMTP).</p>
      </header>
      {names.length === 0 && <p className="muted">No accounts yet.</p>}
      <ul className="email-accounts" aria-label="E-mail accounts">
        {names.map((name) => (
          <li key={name} className="email-account">
            <div className="email-account-info">
              <strong>{name}</strong>
              <span className="muted">
                {' '}
                {accounts[name]?.user} · {accounts[name]?.from}
              </span>
              <span className="email-account-badges">
                {name === effectiveDefault && <span className="email-badge">default</span>}
                {settings.secrets[emailPasswordSecret(name)]?.set ? (
                  <span className="email-badge" data-testid="email-password-status">
                    password set
                  </span>
                ) : (
                  <span className="email-badge warning" data-testid="email-password-status">
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
              {name !== effectiveDefault && (
                <button
                  type="button"
                  className="button secondary"
                  onClick={() => update.mutate({ email: { defaultAccount: name } })}
                >
                  Make default
                </button>
              )}
              <button type="button" className="button secondary" onClick={() => void remove(name)}>
                Remove
              </button>
            </div>
          </li>
        ))}
      </ul>
      {editing ? (
        <EmailAccountForm
          key={editing.draft.name || 'new'}
          initial={editing.draft}
          isNew={editing.isNew}
          passwordStored={
            !editing.isNew && Boolean(settings.secrets[emailPasswordSecret(editing.draft.name)]?.set)
          }
          onSave={save}
          onCancel={() => setEditing(undefined)}
        />
      ) : (
        <button
          type="button"
          className="button secondary"
          onClick={() => setEditing({ draft: { name: '', account: EmailAccount.parse({}) }, isNew: true })}
        >
          Add account
        </button>
      )}
    </section>
  )
}
