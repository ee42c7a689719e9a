import { useState } from 'react'
import type { PublicSettings } from '../../../../shared/settings'
import { useUpdateSettings } from '../useSettings'

type Theme = PublicSettings['ui']['theme']
const themes: Array<{ value: Theme; label: string }> = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
]

/** Theme: saved at once. */
export function AppearanceSection({ settings }: { settings: PublicSettings }) {
  const update = useUpdateSettings()
  // Shown at once; the saved value takes over when settings.update answers.
  const [choice, setChoice] = useState<Theme | undefined>()
  const current = update.isPending && choice ? choice : settings.ui.theme
  return (
    <section className="settings-card" aria-labelledby="appearance-title" id="appearance">
      <header>
        <h2 id="appearance-title">Appearance</h2>
      </header>
      <fieldset className="theme-field">
        <legend>Theme</legend>
        <div className="segmented">
          {themes.map((t) => (
            <label key={t.value} className={current === t.value ? 'segment checked' : 'segment'}>
              <input
                type="radio"
                name="theme"
                value={t.value}
                checked={current === t.value}
                onChange={() => {
                  setChoice(t.value)
                  update.mutate({ ui: { theme: t.value } })
                }}
              />
              {t.label}
            </label>
          ))}
        </div>
      </fieldset>
      {update.error && (
        <p className="field-error" role="alert">
          {update.error.message}
        </p>
      )}
    </section>
  )
}
