import type { PublicSettings } from '../../../../shared/settings'
import { Field } from '../../components/Field'
import { issueFor } from '../issuesByPath'
import { SettingsSection } from '../SettingsSection'
import { StartBrowserForBureau } from '../StartBrowserForBureau'
import { useSectionForm } from '../useSectionForm'

/** How the browser toolset reaches a browser. */
export function BrowserSection({ settings }: { settings: PublicSettings }) {
  const b = settings.browser
  const form = useSectionForm(
    {
      mode: b.mode,
      executablePath: b.executablePath ?? '',
      profileDir: b.profileDir ?? '',
      cdpEndpoint: b.cdpEndpoint ?? '',
      allowLocalNetwork: b.allowLocalNetwork,
    },
    (d) => ({
      browser: {
        mode: d.mode,
        executablePath: d.executablePath.trim() || null,
        profileDir: d.profileDir.trim() || null,
        cdpEndpoint: d.cdpEndpoint.trim() || null,
        allowLocalNetwork: d.allowLocalNetwork,
      },
    }),
  )
  return (
    <SettingsSection
      id="browser"
      title="Browser"
      description="The browser the agent drives when a task needs the web."
      form={form}
    >
      <div className="field-grid">
        <Field label="Mode" error={issueFor(form.issues, 'mode')}>
          <select className="input" {...form.text('mode')}>
            <option value="edge-profile">Your Edge/Chrome profile</option>
            <option value="cdp">Connect to a running browser (CDP)</option>
            <option value="bundled-chromium">Separate Chromium</option>
          </select>
        </Field>
        {/* Shown in every mode: "Start Edge for Bureau" uses it too. */}
        <Field
          label="Browser executable"
          hint="Empty: found automatically."
          error={issueFor(form.issues, 'executablePath')}
        >
          <input className="input mono" {...form.text('executablePath')} />
        </Field>
        {form.draft.mode === 'cdp' && (
          <Field
            label="CDP endpoint"
            hint="e.g. http://127.0.0.1:9222"
            error={issueFor(form.issues, 'cdpEndpoint')}
          >
            <input className="input mono" {...form.text('cdpEndpoint')} />
          </Field>
        )}
        {form.draft.mode === 'edge-profile' && (
          <Field
            label="Profile folder"
            hint="Empty: the browser's default profile."
            error={issueFor(form.issues, 'profileDir')}
          >
            <input className="input mono" {...form.text('profileDir')} />
          </Field>
        )}
      </div>
      <StartBrowserForBureau disabled={form.dirty} />
      <label className="switch">
        <input type="checkbox" {...form.checkbox('allowLocalNetwork')} />
        <span>Allow local and private network addresses</span>
      </label>
    </SettingsSection>
  )
}
