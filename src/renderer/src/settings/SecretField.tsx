import { type Ref, useId, useState } from 'react'
import type { PublicSettings } from '../../../shared/settings'
import { Icon } from '../components/Icon'
import { useSecretMutations } from './useSettings'

type Masked = PublicSettings['secrets'][string]

function secretStatusText(secret: Masked | undefined): string {
  if (!secret?.set) return 'Not set'
  if (secret.unreadable) return 'Stored key cannot be read — enter it again'
  const hint = secret.hint ? ` · ${secret.hint}` : ''
  if (secret.source === 'env') return `From ${secret.envVar ?? 'the environment'}${hint}`
  return `Set${hint}`
}

/**
 * A secret (API key, password): shows only whether it is set and a short hint, never the value.
 * It can be replaced or cleared; what is typed is sent once and the box is emptied.
 */
export function SecretField({
  name,
  label,
  secret,
  inputRef,
  onTyped,
}: {
  name: string
  label: string
  secret: Masked | undefined
  inputRef?: Ref<HTMLButtonElement> | undefined
  /** What is typed and not saved yet ('' once saved or cancelled), e.g. for a connection test. */
  onTyped?: (value: string) => void
}) {
  const id = useId()
  const [editing, setEditing] = useState(false)
  const [value, setTypedValue] = useState('')
  const setValue = (next: string) => {
    setTypedValue(next)
    onTyped?.(next)
  }
  const { set, clear } = useSecretMutations()
  const error = set.error ?? clear.error
  const status = secretStatusText(secret)

  // Not a <form>: this field sits inside its section's form, and forms must not nest.
  const save = async () => {
    if (!value.trim()) return
    try {
      await set.mutateAsync({ name, value: value.trim() })
      setEditing(false)
    } finally {
      setValue('')
    }
  }

  return (
    <div className="field secret-field">
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <div className="secret-row">
        <span
          className={secret?.unreadable ? 'secret-status warning-text' : 'secret-status'}
          data-testid="secret-status"
          aria-describedby={`${id}-label`}
        >
          <Icon name={secret?.set && !secret.unreadable ? 'check' : 'alert'} size={14} />
          {status}
        </span>
        {!editing && (
          <>
            <button
              type="button"
              className="button small secondary"
              onClick={() => setEditing(true)}
              ref={inputRef}
            >
              {secret?.set ? 'Replace' : 'Enter key'}
            </button>
            {secret?.set && secret.source !== 'env' && (
              <button type="button" className="button small secondary" onClick={() => clear.mutate(name)}>
                Clear
              </button>
            )}
          </>
        )}
      </div>
      {editing && (
        <fieldset className="secret-edit" aria-label={`Replace ${label.toLowerCase()}`}>
          <input
            className="input"
            type="password"
            autoComplete="off"
            spellCheck={false}
            aria-label={`New ${label.toLowerCase()}`}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault()
                void save()
              }
            }}
            // biome-ignore lint/a11y/noAutofocus: the user just pressed Replace
            autoFocus
          />
          <button
            type="button"
            className="button small"
            onClick={() => void save()}
            disabled={!value.trim() || set.isPending}
          >
            Save key
          </button>
          <button
            type="button"
            className="button small secondary"
            onClick={() => {
              setValue('')
              setEditing(false)
            }}
          >
            Cancel
          </button>
        </fieldset>
      )}
      <span className="field-hint">Stored encrypted on this computer. Bureau never shows it again.</span>
      {error && (
        <span className="field-error" role="alert">
          {error.message}
        </span>
      )}
    </div>
  )
}
