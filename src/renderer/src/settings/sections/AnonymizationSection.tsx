import type { PublicSettings } from '../../../../shared/settings'
import { Field } from '../../components/Field'
import { issueFor } from '../issuesByPath'
import { SettingsSection } from '../SettingsSection'
import { useSectionForm } from '../useSectionForm'

const toTerms = (text: string) =>
  text
    .split('\n')
    .map((t) => t.trim())
    .filter(Boolean)

/** Names and keys replaced by placeholders before anything reaches the model. */
export function AnonymizationSection({ settings }: { settings: PublicSettings }) {
  const form = useSectionForm(
    { enabled: settings.anonymization.enabled, terms: settings.anonymization.terms.join('\n') },
    (d) => ({ anonymization: { enabled: d.enabled, terms: toTerms(d.terms) } }),
  )
  return (
    <SettingsSection
      id="anonymization"
      title="Anonymization"
      description="Replace these names and keys with placeholders in everything sent to the model; answers are translated back."
      form={form}
    >
      <label className="switch">
        <input type="checkbox" {...form.checkbox('enabled')} />
        <span>Anonymize requests</span>
      </label>
      <Field
        label="Terms, one per line"
        hint={`${toTerms(form.draft.terms).length} terms`}
        error={issueFor(form.issues, 'terms')}
      >
        <textarea className="input" rows={4} {...form.text('terms')} placeholder={'Contoso Ltd\nJane Doe'} />
      </Field>
    </SettingsSection>
  )
}
