import type { FormEvent, ReactNode } from 'react'
import { SaveActions } from './SaveActions'
import type { SectionFormStatus } from './useSectionForm'

/** A card of settings with its own Save button and a saved/failed line. */
export function SettingsSection({
  id,
  title,
  description,
  children,
  form,
  validate,
  dirty = form.dirty,
}: {
  id: string
  title: string
  description?: string
  children: ReactNode
  /** The section's `useSectionForm`. */
  form: SectionFormStatus
  /** Checked before saving; false keeps the draft and saves nothing. */
  validate?: () => boolean
  /** Instead of `form.dirty` when more than the draft can change. */
  dirty?: boolean
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (dirty && !form.saving) form.save(validate)
  }
  return (
    <section className="settings-card" aria-labelledby={`${id}-title`} id={id}>
      <header>
        <h2 id={`${id}-title`}>{title}</h2>
        {description && <p className="muted">{description}</p>}
      </header>
      <form onSubmit={submit} noValidate>
        {children}
        <SaveActions dirty={dirty} saving={form.saving} saved={form.saved} error={form.error} />
      </form>
    </section>
  )
}
