import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { PublicSettings } from '../../../../shared/settings'
import { Field } from '../../components/Field'
import { queryKeys } from '../../ipc/queryKeys'
import { EvalScores } from '../EvalScores'
import { issueFor } from '../issuesByPath'
import { useOllamaStatus } from '../modelsApi'
import { OllamaPull } from '../OllamaPull'
import { type ProviderInfo, useProviders, useProvidersApi } from '../providersApi'
import { SecretField } from '../SecretField'
import { SettingsSection } from '../SettingsSection'
import { useSettingsFocus } from '../settingsFocus'
import { TestConnection } from '../TestConnection'
import { useSectionForm } from '../useSectionForm'
import { SETTINGS_KEY, useSecretMutations, useSettingsApi } from '../useSettings'
import { CustomProviderForm } from './CustomProviderForm'

const HTTP_URL = /^https?:\/\/\S+$/

/** Each field's problem, shown where the field is as soon as it is typed. */
function draftErrors(d: Draft): { baseUrl?: string; contextWindow?: string } {
  const window = d.contextWindow.trim()
  return {
    ...(d.baseUrl.trim() &&
      !HTTP_URL.test(d.baseUrl.trim()) && { baseUrl: 'The base URL starts with http:// or https://.' }),
    ...(window &&
      !(/^\d+$/.test(window) && Number(window) >= 512) && {
        contextWindow: 'The context window is a whole number of tokens, at least 512.',
      }),
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

interface Draft {
  baseUrl: string
  model: string
  contextWindow: string
  interactionMode: '' | 'api' | 'cli'
}

function draftFrom(settings: PublicSettings, active: string): Draft {
  const override = settings.providers[active] ?? {}
  return {
    baseUrl: override.baseUrl ?? '',
    model: override.model ?? '',
    contextWindow: override.contextWindow ? String(override.contextWindow) : '',
    interactionMode: override.interactionMode ?? '',
  }
}

/** Which model Bureau talks to: preset, overrides, API key and a connection test. */
export function ProviderSection({ settings }: { settings: PublicSettings }) {
  const providers = useProviders({ retry: false })
  const [active, setActive] = useState(settings.provider.active)
  useEffect(() => setActive(settings.provider.active), [settings.provider.active])

  const form = useSectionForm(draftFrom(settings, active), (d) => ({
    provider: { active },
    providers: {
      [active]: {
        baseUrl: d.baseUrl.trim() || null,
        model: d.model.trim() || null,
        contextWindow: d.contextWindow.trim() ? Number(d.contextWindow) : null,
        interactionMode: d.interactionMode || null,
      },
    },
  }))
  const keyButton = useRef<HTMLButtonElement>(null)
  const providerSelect = useRef<HTMLSelectElement>(null)
  const queryClient = useQueryClient()
  const settingsApi = useSettingsApi()
  const { listProviderModels, removeCustomProvider } = useProvidersApi()
  const [adding, setAdding] = useState(false)
  const [confirmRemove, setConfirmRemove] = useState(false)
  // A new SecretField after the main Save stored what was typed in it (its box empties).
  const [keyGeneration, setKeyGeneration] = useState(0)
  const { set: setSecret } = useSecretMutations()

  useEffect(() => {
    const target = useSettingsFocus.getState().consume()
    if (target === 'apiKey') keyButton.current?.focus()
    else if (target === 'provider') providerSelect.current?.focus()
  }, [])

  const list: ProviderInfo[] = providers.data ?? [{ id: active, name: active, baseUrl: '', model: '' }]
  const preset = list.find((p) => p.id === active)
  // The provider chats really use: BUREAU_PROVIDER wins over settings.json while it is set.
  const effective = providers.data?.find((p) => p.active)
  const fromEnv = effective?.activeSource === 'environment'
  const keyName = `providers.${active}.apiKey`
  const ollama = useOllamaStatus(preset?.kind === 'ollama')
  const ollamaModels = preset?.kind === 'ollama' && ollama.data?.running ? ollama.data.models : undefined
  const baseUrl = form.draft.baseUrl.trim()
  // Test connection tests what is on screen: the unsaved base URL, model and a key typed but not saved.
  const [typed, setTyped] = useState({ name: keyName, value: '' })
  const typedKey = typed.name === keyName ? typed.value : ''
  const draft = {
    ...(/^https?:\/\/\S+$/.test(baseUrl) && { baseUrl }),
    ...(form.draft.model.trim() && { model: form.draft.model.trim() }),
    ...(typedKey.trim() && { apiKey: typedKey.trim() }),
  }

  const errors = draftErrors(form.draft)
  const validate = () => Object.keys(errors).length === 0
  // The main Save stores a key typed and not saved with "Save key" too: typing a key and pressing Save keeps it.
  const pendingKey = typedKey.trim()
  const sectionForm = {
    ...form,
    saving: form.saving || setSecret.isPending,
    error: form.error ?? setSecret.error?.message,
    save: (check?: () => boolean) => {
      if (check && !check()) return
      const afterKey = () => {
        setTyped({ name: keyName, value: '' })
        setKeyGeneration((g) => g + 1)
        form.save()
      }
      if (pendingKey) setSecret.mutate({ name: keyName, value: pendingKey }, { onSuccess: afterKey })
      else form.save()
    },
  }
  const remove = useMutation({
    mutationFn: async (id: string) => {
      await removeCustomProvider(id)
      const secret = `providers.${id}.apiKey`
      if (settings.secrets[secret]?.set) await settingsApi.clearSecret(secret)
      // A removed provider cannot stay the one in use: the default takes over.
      const next = await settingsApi.update({
        ...(settings.provider.active === id && { provider: { active: null } }),
        providers: { [id]: null },
      })
      queryClient.setQueryData(SETTINGS_KEY, next)
      await queryClient.invalidateQueries({ queryKey: queryKeys.providers() })
      setActive(next.provider.active)
    },
    onSuccess: () => setConfirmRemove(false),
  })
  const presetValues = preset?.preset
  const customUrl =
    presetValues && baseUrl !== '' && baseUrl.replace(/\/+$/, '') !== presetValues.baseUrl.replace(/\/+$/, '')
  const listsModels = preset?.kind === 'openai-compatible'
  const modelList = useQuery({
    queryKey: [...queryKeys.providers(), 'listModels', active, HTTP_URL.test(baseUrl) ? baseUrl : ''],
    queryFn: () => listProviderModels(active, HTTP_URL.test(baseUrl) ? { baseUrl } : undefined),
    enabled: listsModels && (baseUrl === '' || HTTP_URL.test(baseUrl)),
    retry: false,
    staleTime: 60_000,
  })
  const listed = listsModels ? (modelList.data?.models ?? []) : []
  const modelHint = () => {
    const parts = [presetValues ? `Preset: ${presetValues.model}` : undefined]
    if (listsModels && modelList.data?.error) parts.push(modelList.data.error)
    else if (listed.length > 0) parts.push(`${listed.length} models listed by the server`)
    return parts.filter(Boolean).join(' · ') || undefined
  }
  const windowHint = () => {
    if (customUrl)
      return `The preset's window is for ${hostOf(presetValues?.baseUrl ?? '')}; empty: ask the server or use the default`
    if (presetValues?.contextWindow) return `Preset: ${presetValues.contextWindow.toLocaleString()}`
    return 'Empty: ask the server or use the default'
  }

  return (
    <SettingsSection
      id="provider"
      title="Model provider"
      description="Where Bureau sends your requests. Empty fields use the preset's value."
      form={sectionForm}
      validate={validate}
      dirty={form.dirty || active !== settings.provider.active || pendingKey !== ''}
    >
      {providers.isError && (
        <p className="field-hint">The provider list is not available: {providers.error.message}</p>
      )}
      {effective && (
        <p className="provider-in-use" data-testid="provider-in-use">
          In use: <strong>{effective.name}</strong> · {effective.model}
          {fromEnv && <span className="badge">from BUREAU_PROVIDER</span>}
        </p>
      )}
      {fromEnv && effective?.id !== active && (
        <p className="field-hint">
          BUREAU_PROVIDER decides while it is set; the choice below is kept in settings.json for when it is
          not.
        </p>
      )}
      <Field
        label={fromEnv ? 'Provider in settings.json' : 'Provider'}
        error={issueFor(form.issues, 'active')}
      >
        <select
          ref={providerSelect}
          className="input"
          value={active}
          onChange={(e) => {
            setActive(e.currentTarget.value)
          }}
        >
          {list.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </Field>
      <div className="field-grid">
        <Field
          label="Base URL"
          hint={presetValues ? `Preset: ${presetValues.baseUrl}` : undefined}
          error={errors.baseUrl ?? issueFor(form.issues, 'baseUrl')}
        >
          <input
            className="input"
            type="url"
            placeholder={presetValues?.baseUrl || preset?.baseUrl || 'https://…'}
            {...form.text('baseUrl')}
          />
        </Field>
        <Field label="Model" hint={modelHint()} error={issueFor(form.issues, 'model')}>
          {ollamaModels && ollamaModels.length > 0 ? (
            <select className="input" {...form.text('model')}>
              <option value="">Preset ({presetValues?.model ?? preset?.model})</option>
              {ollamaModels.map((m) => (
                <option key={m.name} value={m.name}>
                  {m.name}
                </option>
              ))}
            </select>
          ) : (
            <input
              className="input"
              placeholder={presetValues?.model || preset?.model || 'model name'}
              list={listed.length > 0 ? 'provider-models' : undefined}
              {...form.text('model')}
            />
          )}
        </Field>
        <Field
          label="Context window (tokens)"
          hint={windowHint()}
          error={errors.contextWindow ?? issueFor(form.issues, 'contextWindow')}
        >
          <input
            className="input"
            inputMode="numeric"
            placeholder={
              !customUrl && presetValues?.contextWindow ? String(presetValues.contextWindow) : 'auto'
            }
            {...form.text('contextWindow')}
          />
        </Field>
        <Field
          label="Interaction mode"
          hint="API: native tool calls. CLI: one terminal tool, for small context windows."
          error={issueFor(form.issues, 'interactionMode')}
        >
          <select className="input" {...form.text('interactionMode')}>
            <option value="">Automatic (by context window)</option>
            <option value="api">API (native tools)</option>
            <option value="cli">CLI (terminal tool)</option>
          </select>
        </Field>
      </div>
      {/* Ollama and the built-in local model need no key: no "Not set" warning for them. */}
      {preset?.needsKey !== false || preset.removable || settings.secrets[keyName]?.set ? (
        <SecretField
          key={`${keyName}:${keyGeneration}`}
          name={keyName}
          label="API key"
          secret={settings.secrets[keyName]}
          inputRef={keyButton}
          onTyped={(value) => setTyped({ name: keyName, value })}
        />
      ) : (
        <p className="hint">{preset.name} needs no API key.</p>
      )}
      {preset?.kind === 'ollama' && ollama.data?.running && <OllamaPull />}
      {preset?.kind === 'ollama' && ollama.data && !ollama.data.running && (
        <p className="field-hint">
          Ollama is not running at {ollama.data.url}. {ollama.data.hint}
        </p>
      )}
      {fromEnv && effective ? (
        <TestConnection providerId={effective.id} label={`Test ${effective.name}`} />
      ) : (
        <TestConnection providerId={active} draft={draft} />
      )}
      {listed.length > 0 && (
        <datalist id="provider-models">
          {listed.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      )}
      <EvalScores providerId={active} />
      {preset?.removable && (
        <div className="settings-actions start">
          {confirmRemove ? (
            <span className="confirm-inline">
              Remove {preset.name} and its stored key?
              <button
                type="button"
                className="button small danger"
                onClick={() => remove.mutate(preset.id)}
                disabled={remove.isPending}
              >
                Remove
              </button>
              <button
                type="button"
                className="button small secondary"
                onClick={() => setConfirmRemove(false)}
              >
                Keep
              </button>
            </span>
          ) : (
            <button type="button" className="button small secondary" onClick={() => setConfirmRemove(true)}>
              Remove {preset.name}…
            </button>
          )}
          {remove.isError && (
            <span className="field-error" role="alert">
              {remove.error.message}
            </span>
          )}
        </div>
      )}
      {adding ? (
        <CustomProviderForm
          onDone={(id) => {
            setAdding(false)
            if (id) setActive(id)
          }}
        />
      ) : (
        <button type="button" className="button secondary add-provider" onClick={() => setAdding(true)}>
          Add an OpenAI-compatible provider…
        </button>
      )}
    </SettingsSection>
  )
}
