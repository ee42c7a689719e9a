import './components.css'
import { cloneElement, type ReactElement, useId } from 'react'

interface FieldProps {
  label: string
  hint?: string | undefined
  error?: string | undefined
  /** One form control; it gets the id, aria-describedby and aria-invalid. */
  children: ReactElement<Record<string, unknown>>
}

/** A labelled form control with its hint and inline validation error. */
export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId()
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, {
        id,
        'aria-describedby': describedBy,
        'aria-invalid': error ? true : undefined,
      })}
      {hint && (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  )
}
