import { useState } from 'react'
import type { PublicSettings } from '../../../shared/settings'
import { Field } from '../components/Field'
import { issueFor } from './issuesByPath'
import { SettingsSection } from './SettingsSection'
import { useSectionForm } from './useSectionForm'

/** How much converted attachment text goes into one request. */
export function AttachmentsSection({ settings }: { settings: PublicSettings }) {
  const form = useSectionForm({ budget: String(settings.attachments.budgetChars) }, (d) => ({
    attachments: { budgetChars: Number(d.budget) },
  }))
  const [local, setLocal] = useState<string | undefined>()
  const validate = () => {
    const n = Number(form.draft.budget)
    const ok = Number.isInteger(n) && n >= 1000 && n <= 2_000_000
    setLocal(ok ? undefined : 'Enter a whole number between 1,000 and 2,000,000.')
    return ok
  }
  return (
    <SettingsSection
      id="attachments"
      title="Attachments"
      description="Files are converted to text; this budget is split equally between the files of one message."
      form={form}
      validate={validate}
    >
      <Field
        label="Budget (characters)"
        hint="Default 30,000"
        error={local ?? issueFor(form.issues, 'budgetChars')}
      >
        <input className="input" inputMode="numeric" {...form.text('budget')} />
      </Field>
    </SettingsSection>
  )
}
