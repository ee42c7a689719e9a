import { useEffect, useRef, useState } from 'react'
import type { PublicSettings } from '../../../../shared/settings'
import { Field } from '../../components/Field'
import { EvalScores } from '../EvalScores'
import { issueFor } from '../issuesByPath'
import { useOllamaStatus } from '../modelsApi'
import { OllamaPull } from '../OllamaPull'
import { type ProviderInfo, useProviders } from '../providersApi'
import { SecretField } from '../SecretField'
import { SettingsSection } from '../SettingsSection'
import { useSettingsFocus } from '../settingsFocus'
import { TestConnection } from '../TestConnection'
import { useSectionForm } from '../useSectionForm'

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
  const [localError, setLocalError] = useState<string | undefined>()
  const keyButton = useRef<HTMLButtonElement>(null)
  const providerSelect = useRef<HTMLSelectElement>(null)

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

  const validate = () => {
    const window = form.draft.contextWindow.trim()
    if (window && !(Number.isInteger(Number(window)) && Number(window) >= 512)) {
      setLocalError('The context window is a whole number of tokens, at least 512.')
      return false
    }
    if (form.draft.baseUrl.trim() && !/^https?:\/\/\S+$/.test(form.draft.baseUrl.trim())) {
      setLocalError('The base URL starts with http:// or https://.')
      return false
    }
    setLocalError(undefined)
    return true
  }

  return (
    <SettingsSection
      id="provider"
      title="Model provider"
      description="Where Bureau sends your requests. Empty fields use the preset's value."
      form={form}
      validate={validate}
      dirty={form.dirty || active !== settings.provider.active}
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
          hint={preset?.baseUrl ? `Preset: ${preset.baseUrl}` : undefined}
          error={issueFor(form.issues, 'baseUrl') ?? (localError?.includes('URL') ? localError : undefined)}
        >
          <input
            className="input"
            type="url"
            placeholder={preset?.baseUrl || 'https://…'}
            {...form.text('baseUrl')}
          />
        </Field>
        <Field
          label="Model"
          hint={preset?.model ? `Preset: ${preset.model}` : undefined}
          error={issueFor(form.issues, 'model')}
        >
          {ollamaModels && ollamaModels.length > 0 ? (
            <select className="input" {...form.text('model')}>
              <option value="">Preset ({preset?.model})</option>
              {ollamaModels.map((m) => (
                <option key={m.name} value={m.name}>
                  {m.name}
                </option>
              ))}
            </select>
          ) : (
            <input className="input" placeholder={preset?.model || 'model name'} {...form.text('model')} />
          )}
        </Field>
        <Field
          label="Context window (tokens)"
          hint={
            preset?.contextWindow
              ? `Preset: ${preset.contextWindow.toLocaleString()}`
              : 'Empty: ask the server or use the default'
          }
          error={
            issueFor(form.issues, 'contextWindow') ??
            (localError?.includes('context') ? localError : undefined)
          }
        >
          <input
            className="input"
            inputMode="numeric"
            placeholder={preset?.contextWindow ? String(preset.contextWindow) : 'auto'}
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
      {preset?.needsKey !== false || settings.secrets[keyName]?.set ? (
        <SecretField
          key={keyName}
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
      <EvalScores providerId={active} />
    </SettingsSection>
  )
}
