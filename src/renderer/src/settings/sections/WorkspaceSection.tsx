import { useState } from 'react'
import type { PublicSettings } from '../../../../shared/settings'
import { useAppInfo } from '../../app/appApi'
import { Field } from '../../components/Field'
import { issueFor } from '../issuesByPath'
import { SettingsSection } from '../SettingsSection'
import { useToolsApi } from '../toolsApi'
import { useSectionForm } from '../useSectionForm'
import { useWholeNumberCheck } from '../useWholeNumberCheck'

/** The folder the agent works in: a native picker in the desktop app, a path field everywhere. */
export function WorkspaceSection({ settings }: { settings: PublicSettings }) {
  const tools = useToolsApi()
  const desktop = useAppInfo().data?.host === 'electron'
  const form = useSectionForm(
    { folder: settings.workspace.folder ?? '', backups: String(settings.workspace.backupsToKeep) },
    (d) => ({ workspace: { folder: d.folder.trim() || null, backupsToKeep: Number(d.backups) } }),
  )
  const [pickError, setPickError] = useState<string | undefined>()
  const backups = useWholeNumberCheck(form.draft.backups, 0, 10_000)

  const pick = async () => {
    setPickError(undefined)
    try {
      const { path } = await tools.pickFolder({
        title: 'Choose the workspace folder',
        ...(form.draft.folder ? { defaultPath: form.draft.folder } : {}),
      })
      if (path) form.set('folder', path)
    } catch (error) {
      setPickError(error instanceof Error ? error.message : String(error))
    }
  }

  return (
    <SettingsSection
      id="workspace"
      title="Workspace folder"
      description="Every file the agent reads or writes lives in this folder; a new folder applies to the next request."
      form={form}
      validate={backups.validate}
    >
      <div className="field-with-button">
        <Field
          label="Folder"
          hint="Empty: the --workspace flag, then BUREAU_WORKSPACE, then the Bureau folder in your home."
          error={issueFor(form.issues, 'folder') ?? pickError}
        >
          <input className="input mono" placeholder="~/Bureau" {...form.text('folder')} />
        </Field>
        {desktop && (
          <button type="button" className="button secondary" onClick={() => void pick()}>
            Choose…
          </button>
        )}
      </div>
      <Field
        label="Backups kept per file"
        hint="Before an overwrite the old version is kept as name.001.bak, name.002.bak… (default 20)."
        error={backups.error ?? issueFor(form.issues, 'backupsToKeep')}
      >
        <input className="input" inputMode="numeric" {...form.text('backups')} />
      </Field>
    </SettingsSection>
  )
}
