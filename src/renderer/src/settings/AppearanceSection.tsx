import type { PublicSettings } from '../../../shared/settings'
import { useUpdateSettings } from './useSettings'

type Theme = PublicSettings['ui']['theme']
const themes: Array<{ value: Theme; label: string }> = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
]

/** Theme: saved at once. */
export function AppearanceSection({ settings }: { settings: PublicSettings }) {
  const update = useUpdateSettings()
  return (
    <section className="settings-card" aria-labelledby="appearance-title" id="appearance">
      <header>
        <h2 id="appearance-title">Appearance</h2>
      </header>
      <fieldset className="segmented">
        <legend>Theme</legend>
        {themes.map((t) => (
          <label key={t.value} className={settings.ui.theme === t.value ? 'segment checked' : 'segment'}>
            <input
              type="radio"
              name="theme"
              value={t.value}
              checked={settings.ui.theme === t.value}
              onChange={() => update.mutate({ ui: { theme: t.value } })}
            />
            {t.label}
          </label>
        ))}
      </fieldset>
      {update.error && (
        <p className="field-error" role="alert">
          {update.error.message}
        </p>
      )}
    </section>
  )
}
