import type { PublicSettings } from '../../../../shared/settings'
import { Field } from '../../components/Field'
import { issueFor } from '../issuesByPath'
import { SettingsSection } from '../SettingsSection'
import { useToolPlugins } from '../toolsApi'
import { useSectionForm } from '../useSectionForm'

function PluginList() {
  const plugins = useToolPlugins()
  if (plugins.isError)
    return <p className="field-hint">The plugin list is not available: {plugins.error.message}</p>
  if (!plugins.data) return null
  if (plugins.data.length === 0) return <p className="field-hint">No plugins loaded.</p>
  return (
    <ul className="plugin-list" aria-label="Loaded plugins">
      {plugins.data.map((p) => (
        <li key={p.plugin} className={`plugin plugin-${p.status}`}>
          <strong>{p.plugin}</strong>
          <span className="plugin-status">{p.status}</span>
          {p.toolsets.length > 0 && <span className="muted">Toolsets: {p.toolsets.join(', ')}</span>}
          {p.error && <span className="error-text">{p.error}</span>}
          {p.skipped.map((s) => (
            <span key={s.name} className="warning-text">
              {s.name} skipped: {s.reason}
            </span>
          ))}
        </li>
      ))}
    </ul>
  )
}

/** The extra plugin folder, the hot-reload debounce and what got loaded. */
export function ToolsSection({ settings }: { settings: PublicSettings }) {
  const form = useSectionForm(
    { folder: settings.tools.extraFolder ?? '', debounce: String(settings.tools.watchDebounceMs / 1000) },
    (d) => ({
      tools: { extraFolder: d.folder.trim() || null, watchDebounceMs: Math.round(Number(d.debounce) * 1000) },
    }),
  )
  return (
    <SettingsSection
      id="tools"
      title="Tools and plugins"
      description="Plugin toolsets are loaded from the shipped tools folder, the data folder and this extra folder."
      form={form}
    >
      <div className="field-grid">
        <Field
          label="Extra tools folder"
          hint="An absolute path; empty for none."
          error={issueFor(form.issues, 'extraFolder')}
        >
          <input className="input mono" {...form.text('folder')} />
        </Field>
        <Field label="Reload delay (seconds)" error={issueFor(form.issues, 'watchDebounceMs')}>
          <input className="input" inputMode="decimal" {...form.text('debounce')} />
        </Field>
      </div>
      <PluginList />
    </SettingsSection>
  )
}
