import type { PublicSettings } from '../../../../shared/settings'
import { Field } from '../../components/Field'
import { issueFor } from '../issuesByPath'
import { SettingsSection } from '../SettingsSection'
import { useSectionForm } from '../useSectionForm'
import { useWholeNumberCheck } from '../useWholeNumberCheck'

/** How much converted attachment text goes into one request, and who reads pictures. */
export function AttachmentsSection({ settings }: { settings: PublicSettings }) {
  const form = useSectionForm(
    { budget: String(settings.attachments.budgetChars), vision: settings.attachments.vision },
    (d) => ({ attachments: { budgetChars: Number(d.budget), vision: d.vision } }),
  )
  const budget = useWholeNumberCheck(form.draft.budget, 1000, 2_000_000)
  return (
    <SettingsSection
      id="attachments"
      title="Attachments"
      description="Files are converted to text; this budget is split equally between the files of one message."
      form={form}
      validate={budget.validate}
    >
      <Field
        label="Budget (characters)"
        hint="Default 30,000"
        error={budget.error ?? issueFor(form.issues, 'budgetChars')}
      >
        <input className="input" inputMode="numeric" {...form.text('budget')} />
      </Field>
      <Field
        label="Images and scanned pages"
        hint={
          form.draft.vision === 'off'
            ? 'Read by text recognition (OCR) on this computer; nothing leaves it.'
            : 'The pictures themselves are sent to the active provider, which transcribes them (anonymization cannot hide names in a picture). Providers without vision support, and failures, fall back to OCR.'
        }
        error={issueFor(form.issues, 'vision')}
      >
        <select className="input" {...form.text('vision')}>
          <option value="off">Text recognition on this computer (OCR)</option>
          <option value="when-supported">The provider's vision model, when it supports images</option>
        </select>
      </Field>
    </SettingsSection>
  )
}
