import { type FormEvent, useState } from 'react'
import { EntryName } from '../../../shared/ipc'

export interface EntryNameFormProps {
  /** The name the field starts with. */
  initial: string
  /** The field's accessible name. */
  inputLabel: string
  placeholder?: string
  submitLabel: string
  className: string
  /** The form's accessible name, when it has one. */
  formLabel?: string
  /** The id of the error line, unique on the page. */
  errorId: string
  /** Show a name's problem at once, not only after a first try or once something is typed. */
  eager?: boolean
  /** Stores the checked name; an error it throws is shown under the field. */
  onSubmit(name: string): Promise<void>
  /** Closes the form (after a success, on Cancel and on Escape). */
  onDone(): void
}

/** One workspace entry's name in place: checked as typed, stored on submit, Escape or Cancel closes it. */
export function EntryNameForm({
  initial,
  inputLabel,
  placeholder,
  submitLabel,
  className,
  formLabel,
  errorId,
  eager = false,
  onSubmit,
  onDone,
}: EntryNameFormProps) {
  const [name, setName] = useState(initial)
  const [tried, setTried] = useState(false)
  const [problem, setProblem] = useState<string>()
  const check = EntryName.safeParse(name)
  const error = problem ?? (eager || tried || name !== '' ? check.error?.issues[0]?.message : undefined)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setTried(true)
    if (!check.success) return
    try {
      await onSubmit(check.data)
      onDone()
    } catch (e) {
      setProblem((e as Error).message)
    }
  }
  return (
    <form className={className} onSubmit={submit} noValidate aria-label={formLabel}>
      <input
        className="input"
        aria-label={inputLabel}
        placeholder={placeholder}
        value={name}
        // biome-ignore lint/a11y/noAutofocus: the field opened by Rename or New folder takes the typing at once
        autoFocus
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => {
          setName(e.currentTarget.value)
          setProblem(undefined)
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onDone()
        }}
      />
      <button type="submit" className="button small">
        {submitLabel}
      </button>
      <button type="button" className="button small secondary" onClick={onDone}>
        Cancel
      </button>
      {error && (
        <span id={errorId} className="field-error" role="alert">
          {error}
        </span>
      )}
    </form>
  )
}
