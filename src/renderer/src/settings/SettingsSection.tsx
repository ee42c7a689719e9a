import { type FormEvent, type ReactNode, useEffect, useRef } from 'react'
import { SaveActions } from './SaveActions'
import type { SectionFormStatus } from './useSectionForm'

/** Every invalid field shows its error at once; Save takes the keyboard to the first of them. */
function focusFirstError(form: HTMLFormElement | null) {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus())
}

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
  const formRef = useRef<HTMLFormElement>(null)
  useEffect(() => {
    if (form.error) focusFirstError(formRef.current)
  }, [form.error])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!dirty || form.saving) return
    form.save(
      validate &&
        (() => {
          const ok = validate()
          if (!ok) focusFirstError(formRef.current)
          return ok
        }),
    )
  }
  return (
    <section className="settings-card" aria-labelledby={`${id}-title`} id={id}>
      <header>
        <h2 id={`${id}-title`}>{title}</h2>
        {description && <p className="muted">{description}</p>}
      </header>
      <form ref={formRef} onSubmit={submit} noValidate>
        {children}
        <SaveActions dirty={dirty} saving={form.saving} saved={form.saved} error={form.error} />
      </form>
    </section>
  )
}
