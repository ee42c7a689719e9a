import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { CustomProviderInput } from '../../../../shared/ipc'
import { Field } from '../../components/Field'
import { queryKeys } from '../../ipc/queryKeys'
import { useProvidersApi } from '../providersApi'
import { SETTINGS_KEY, useSettingsApi } from '../useSettings'

interface Draft {
  name: string
  baseUrl: string
  model: string
  apiKey: string
  contextWindow: string
}
type FieldName = keyof Draft
const EMPTY: Draft = { name: '', baseUrl: '', model: '', apiKey: '', contextWindow: '' }
const ORDER: FieldName[] = ['name', 'baseUrl', 'apiKey', 'model', 'contextWindow']

/** Every field's problem at once, keyed by field; empty when the draft can be saved. */
export function customProviderErrors(draft: Draft): Partial<Record<FieldName, string>> {
  const errors: Partial<Record<FieldName, string>> = {}
  const window = draft.contextWindow.trim()
  if (window && !/^\d+$/.test(window)) errors.contextWindow = 'A whole number of tokens, e.g. 32768.'
  const parsed = CustomProviderInput.safeParse({
    name: draft.name,
    baseUrl: draft.baseUrl.trim(),
    model: draft.model,
    ...(window && /^\d+$/.test(window) && { contextWindow: Number(window) }),
  })
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as FieldName
      errors[field] ??= issue.message
    }
  if (draft.apiKey.length > 4096) errors.apiKey = 'At most 4,096 characters.'
  return errors
}

/**
 * Adds a named OpenAI-compatible server (LM Studio, vLLM, llama.cpp's server, a company gateway) and
 * makes it the provider in use: its key is stored encrypted, its models come from its `/models`.
 */
export function CustomProviderForm({ onDone }: { onDone: (id: string | undefined) => void }) {
  const queryClient = useQueryClient()
  const settingsApi = useSettingsApi()
  const { listProviderModels, saveCustomProvider } = useProvidersApi()
  const [draft, setDraft] = useState(EMPTY)
  const [touched, setTouched] = useState<ReadonlySet<FieldName>>(new Set())
  const [models, setModels] = useState<{ list: string[]; error: string | null } | undefined>()
  const boxes = useRef<Partial<Record<FieldName, HTMLInputElement | null>>>({})
  const errors = customProviderErrors(draft)
  const shown = (field: FieldName) => (touched.has(field) ? errors[field] : undefined)

  const set = (field: FieldName, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }))
    setTouched((t) => new Set([...t, field]))
  }
  const loadModels = useMutation({
    mutationFn: () =>
      listProviderModels(undefined, {
        baseUrl: draft.baseUrl.trim(),
        ...(draft.apiKey.trim() && { apiKey: draft.apiKey.trim() }),
      }),
    onSuccess: (answer) => setModels({ list: answer.models, error: answer.error }),
  })
  const save = useMutation({
    mutationFn: async () => {
      const window = draft.contextWindow.trim()
      const stored = await saveCustomProvider({
        name: draft.name.trim(),
        baseUrl: draft.baseUrl.trim(),
        model: draft.model.trim(),
        ...(window && { contextWindow: Number(window) }),
      })
      if (draft.apiKey.trim())
        await settingsApi.setSecret({
          name: `providers.${stored.id}.apiKey`,
          value: draft.apiKey.trim(),
        })
      const settings = await settingsApi.update({ provider: { active: stored.id } })
      queryClient.setQueryData(SETTINGS_KEY, settings)
      await queryClient.invalidateQueries({ queryKey: queryKeys.providers() })
      return stored
    },
    onSuccess: (stored) => onDone(stored.id),
  })

  const submit = () => {
    setTouched(new Set(ORDER))
    const first = ORDER.find((field) => errors[field])
    if (first) {
      boxes.current[first]?.focus()
      return
    }
    save.mutate()
  }
  const input = (field: FieldName) => ({
    ref: (el: HTMLInputElement | null) => {
      boxes.current[field] = el
    },
    value: draft[field],
    onChange: (event: { currentTarget: HTMLInputElement }) => set(field, event.currentTarget.value),
    className: 'input',
  })
  const baseUrlOk = !errors.baseUrl && draft.baseUrl.trim() !== ''

  return (
    // Not a <form>: it sits inside the Model provider section's form, and forms must not nest.
    <fieldset className="custom-provider" aria-label="Add an OpenAI-compatible provider">
      <legend>Add an OpenAI-compatible provider</legend>
      <p className="field-hint">
        LM Studio, vLLM, llama.cpp's server, LocalAI or a company gateway: anything that speaks the OpenAI
        API.
      </p>
      <div className="field-grid">
        <Field label="Name" error={shown('name')}>
          <input {...input('name')} placeholder="LM Studio" autoComplete="off" />
        </Field>
        <Field label="Base URL" hint="Usually ends in /v1." error={shown('baseUrl')}>
          <input {...input('baseUrl')} type="url" placeholder="http://127.0.0.1:1234/v1" />
        </Field>
        <Field label="API key (optional)" hint="Stored encrypted on this computer." error={shown('apiKey')}>
          <input {...input('apiKey')} type="password" autoComplete="off" spellCheck={false} />
        </Field>
        <Field
          label="Model"
          hint={
            models?.error ??
            (models ? `${models.list.length} models listed by the server; any name can be typed.` : undefined)
          }
          error={shown('model')}
        >
          <input {...input('model')} list="custom-provider-models" placeholder="model name" />
        </Field>
        <Field label="Context window (tokens, optional)" error={shown('contextWindow')}>
          <input {...input('contextWindow')} inputMode="numeric" placeholder="ask the server" />
        </Field>
      </div>
      <datalist id="custom-provider-models">
        {models?.list.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <div className="settings-actions">
        {save.isError && (
          <span className="field-error" role="alert">
            {save.error.message}
          </span>
        )}
        <button
          type="button"
          className="button secondary"
          disabled={!baseUrlOk || loadModels.isPending}
          title={baseUrlOk ? undefined : 'Enter the base URL first'}
          onClick={() => loadModels.mutate()}
        >
          {loadModels.isPending ? 'Loading models…' : 'Load models'}
        </button>
        <button type="button" className="button secondary" onClick={() => onDone(undefined)}>
          Cancel
        </button>
        <button type="button" className="button" disabled={save.isPending} onClick={submit}>
          {save.isPending ? 'Adding…' : 'Add and use'}
        </button>
      </div>
    </fieldset>
  )
}
