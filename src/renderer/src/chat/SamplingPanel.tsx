import { useRef, useState } from 'react'
import { type Conversation, GenerationSettings } from '../../../shared/ipc'
import { Field } from '../components/Field'
import { useProviders } from '../settings/providersApi'
import { useConversationActions } from './conversations/conversationsApi'
import { problemFrom } from './messages/problemFrom'

type Meta = Pick<Conversation, 'id' | 'model' | 'generation'>
type Errors = { temperature?: string | undefined; maxOutputTokens?: string | undefined }

/** Empty text: the provider's own value; otherwise a number the shared schema checks. */
function parse(temperature: string, maxOutputTokens: string) {
  const draft = {
    ...(temperature.trim() !== '' && { temperature: Number(temperature) }),
    ...(maxOutputTokens.trim() !== '' && { maxOutputTokens: Number(maxOutputTokens) }),
  }
  const result = GenerationSettings.safeParse(draft)
  const errors: Errors = {}
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path[0] as keyof Errors
    errors[field] ??= Number.isNaN(draft[field]) ? 'Enter a number.' : issue.message
  }
  return { value: result.data, errors }
}

/** The provider's own value, as the hint under each field says it. */
function useProviderDefaults(meta: Meta) {
  const providers = useProviders({ retry: false })
  const provider =
    providers.data?.find((p) => p.id === meta.model?.providerId) ?? providers.data?.find((p) => p.active)
  return {
    temperature:
      provider?.temperature != null
        ? `${provider.name} default: ${provider.temperature}`
        : `Empty: ${provider?.name ?? 'the provider'}’s default. 0 is steady, 2 is most varied.`,
    maxOutputTokens:
      provider?.maxOutputTokens != null
        ? `${provider.name} default: ${provider.maxOutputTokens.toLocaleString()} tokens`
        : `Empty: ${provider?.name ?? 'the provider'}’s default length`,
  }
}

/** Temperature and longest answer of one conversation, checked as typed; all errors at once on Save. */
export function SamplingPanel({
  conversation,
  onSaved,
  onClose,
  onProblem,
}: {
  conversation: Meta
  onSaved(c: Conversation): void
  onClose(): void
  onProblem(problem: ReturnType<typeof problemFrom>): void
}) {
  const conversations = useConversationActions()
  const defaults = useProviderDefaults(conversation)
  const [temperature, setTemperature] = useState(conversation.generation?.temperature?.toString() ?? '')
  const [maxTokens, setMaxTokens] = useState(conversation.generation?.maxOutputTokens?.toString() ?? '')
  const [saving, setSaving] = useState(false)
  const fields = {
    temperature: useRef<HTMLInputElement>(null),
    maxOutputTokens: useRef<HTMLInputElement>(null),
  }
  const { value, errors } = parse(temperature, maxTokens)
  const save = async (generation: GenerationSettings | null) => {
    setSaving(true)
    try {
      onSaved(await conversations.update({ id: conversation.id, generation }))
      onClose()
    } catch (error) {
      onProblem(problemFrom(error))
    } finally {
      setSaving(false)
    }
  }
  return (
    <form
      className="instructions-panel sampling-panel"
      aria-label="Answer settings for this conversation"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        const first = (['temperature', 'maxOutputTokens'] as const).find((f) => errors[f])
        if (first) return fields[first].current?.focus()
        void save(value && Object.keys(value).length > 0 ? value : null)
      }}
    >
      <div className="sampling-fields">
        <Field label="Temperature" hint={defaults.temperature} error={errors.temperature}>
          <input
            ref={fields.temperature}
            className="input"
            type="text"
            inputMode="decimal"
            placeholder="Provider default"
            value={temperature}
            onChange={(e) => setTemperature(e.currentTarget.value)}
          />
        </Field>
        <Field label="Max output tokens" hint={defaults.maxOutputTokens} error={errors.maxOutputTokens}>
          <input
            ref={fields.maxOutputTokens}
            className="input"
            type="text"
            inputMode="numeric"
            placeholder="Provider default"
            value={maxTokens}
            onChange={(e) => setMaxTokens(e.currentTarget.value)}
          />
        </Field>
      </div>
      <div className="edit-buttons">
        <button type="submit" className="button small" disabled={saving}>
          Save
        </button>
        {conversation.generation && (
          <button
            type="button"
            className="button small secondary"
            disabled={saving}
            onClick={() => void save(null)}
          >
            Use the provider’s
          </button>
        )}
        <button type="button" className="button small secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  )
}
