import type { FormEvent, ReactNode } from 'react'

/** A card of settings with its own Save button and a saved/failed line. */
export function SettingsSection({
  id,
  title,
  description,
  children,
  onSave,
  dirty,
  saving,
  saved,
  error,
}: {
  id: string
  title: string
  description?: string
  children: ReactNode
  onSave?: (() => void) | undefined
  dirty?: boolean
  saving?: boolean
  saved?: boolean
  error?: string | undefined
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (dirty && !saving) onSave?.()
  }
  return (
    <section className="settings-card" aria-labelledby={`${id}-title`} id={id}>
      <header>
        <h2 id={`${id}-title`}>{title}</h2>
        {description && <p className="muted">{description}</p>}
      </header>
      <form onSubmit={submit} noValidate>
        {children}
        {onSave && (
          <div className="settings-actions">
            {error && (
              <span className="field-error" role="alert">
                {error}
              </span>
            )}
            {saved && !dirty && !error && (
              <span className="saved-text" role="status">
                Saved
              </span>
            )}
            <button type="submit" className="button" disabled={!dirty || saving}>
              {saving ? 'Saving…' : 'Save'}
            </button>
          </div>
        )}
      </form>
    </section>
  )
}
