import './firstRun.css'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useEffect, useState } from 'react'
import type { PublicSettings } from '../../../shared/settings'
import { formatBytes } from '../components/formatBytes'
import { Icon } from '../components/Icon'
import { moreBelowHint } from '../components/moreBelowHint'
import { queryKeys } from '../ipc/queryKeys'
import { DownloadProgress } from '../settings/DownloadProgress'
import { formatSpeed } from '../settings/formatSpeed'
import {
  MAX_IMPORT_BYTES,
  useCatalogue,
  useDownloads,
  useImportModelFile,
  useModelSpeeds,
  useModelsApi,
  useOllamaStatus,
} from '../settings/modelsApi'
import { type ConnectionTest, useProviders, useProvidersApi } from '../settings/providersApi'
import { SETTINGS_KEY, useSettingsApi } from '../settings/useSettings'
import { TalkOffline } from './TalkOffline'

type Choice = 'local' | 'ollama' | 'cloud'

/** Tests a provider; a working one is remembered and the guide goes away for good. */
function useGuideTest(choice: Choice) {
  const settingsApi = useSettingsApi()
  const { testProvider } = useProvidersApi()
  const client = useQueryClient()
  return useMutation({
    mutationFn: async (providerId: string) => {
      const result = await testProvider(providerId)
      if (result.ok) {
        await settingsApi.update({ ui: { providerWorked: true, setupChoice: choice } })
        await client.invalidateQueries({ queryKey: SETTINGS_KEY })
      }
      return result
    },
  })
}

interface TestState {
  isPending: boolean
  error: Error | null
  data?: ConnectionTest | undefined
}

function TestLine({ test, failed }: { test: TestState; failed?: string }) {
  return (
    <p role="status" className="guide-status">
      {test.isPending && 'Testing the connection…'}
      {test.error && <span className="error-text">{test.error.message}</span>}
      {test.data?.ok && (
        <span className="ok-text">
          <Icon name="check" size={14} /> Connected · {test.data.model}
        </span>
      )}
      {test.data && !test.data.ok && (
        <span className="error-text">
          {test.data.message}
          {failed && ` ${failed}`}
        </span>
      )}
    </p>
  )
}

function Path({ title, chosen, children }: { title: string; chosen: boolean; children: ReactNode }) {
  return (
    <section className={chosen ? 'guide-path chosen' : 'guide-path'} aria-label={title}>
      <h3>{title}</h3>
      {children}
    </section>
  )
}

function LocalPath({ chosen, remember }: { chosen: boolean; remember(): void }) {
  const models = useModelsApi()
  const catalogue = useCatalogue()
  const importModelFile = useImportModelFile()
  const speeds = useModelSpeeds()
  const downloads = useDownloads()
  const test = useGuideTest('local')
  const [problem, setProblem] = useState<string>()
  const smallest = [...(catalogue.data ?? [])].sort((a, b) => a.sizeBytes - b.sizeBytes)[0]
  const download = smallest && downloads.get(smallest.id)
  const selectAndTest = async (id: string) => {
    const { providerId } = await models.use(id)
    test.mutate(providerId)
  }
  const run = (action: () => Promise<void>) => {
    remember()
    setProblem(undefined)
    action().catch((error: Error) => setProblem(error.message))
  }
  const finished = download?.state === 'done' ? download.id : undefined
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per finished download
  useEffect(() => {
    if (finished) run(() => selectAndTest(finished))
  }, [finished])
  return (
    <Path title="Download a local model" chosen={chosen}>
      <p className="muted">Runs on this computer: private, free, no account. Slower than a cloud model.</p>
      {smallest && (
        <button
          type="button"
          className="button"
          disabled={download?.state === 'downloading'}
          onClick={() => run(async () => void (await models.pull(smallest.id)))}
        >
          <Icon name="download" size={14} /> Download {smallest.name} ({formatBytes(smallest.sizeBytes)})
        </button>
      )}
      {smallest && speeds.has(smallest.id) && (
        <p className="muted">{formatSpeed(speeds.get(smallest.id)!)}.</p>
      )}
      {smallest && !smallest.fitsMemory && (
        <p className="error-text">It needs {smallest.minRamGiB} GB of memory, more than this computer has.</p>
      )}
      {download && download.state !== 'done' && (
        <DownloadProgress progress={download} onCancel={() => void models.cancel(download.id)} />
      )}
      <label className="guide-file">
        Or use a .gguf file you have
        <input
          type="file"
          accept=".gguf"
          aria-describedby="guide-file-hint"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0]
            if (file) run(async () => selectAndTest((await importModelFile(file)).id))
          }}
        />
      </label>
      <p id="guide-file-hint" className="muted guide-hint">
        Files up to {MAX_IMPORT_BYTES / 1024 / 1024} MB open here. A full model (
        {formatBytes(smallest?.sizeBytes ?? 1.7e9)} or more) is added in a terminal:{' '}
        <code>bureau models import model.gguf</code>
      </p>
      {problem && <p className="error-text">{problem}</p>}
      <TestLine test={test} />
    </Path>
  )
}

function OllamaPath({ chosen, remember }: { chosen: boolean; remember(): void }) {
  const settingsApi = useSettingsApi()
  const status = useOllamaStatus()
  const test = useGuideTest('ollama')
  const client = useQueryClient()
  const use = async () => {
    remember()
    const model = status.data?.models[0]?.name
    await settingsApi.update({
      provider: { active: 'ollama', model: null },
      ...(model && { providers: { ollama: { model } } }),
    })
    await client.invalidateQueries({ queryKey: queryKeys.providers() })
    test.mutate('ollama')
  }
  return (
    <Path title="Use Ollama" chosen={chosen}>
      {status.isPending && <p className="muted">Looking for Ollama…</p>}
      {status.data?.running && (
        <>
          <p className="ok-text">
            Detected at {status.data.url} with {status.data.models.length} model
            {status.data.models.length === 1 ? '' : 's'}.
          </p>
          <button type="button" className="button" onClick={() => void use()}>
            Use Ollama{status.data.models[0] ? ` (${status.data.models[0].name})` : ''}
          </button>
        </>
      )}
      {status.data && !status.data.running && (
        <>
          <p className="muted">Not detected: {status.data.error}</p>
          <p className="muted">{status.data.hint}</p>
          <button type="button" className="button secondary" onClick={() => void status.refetch()}>
            <Icon name="refresh" size={14} /> Look again
          </button>
        </>
      )}
      <TestLine test={test} />
    </Path>
  )
}

const HTTP_URL = /^https?:\/\/[^\s/]+\S*$/

function CloudPath({ chosen, remember }: { chosen: boolean; remember(): void }) {
  const settingsApi = useSettingsApi()
  const providers = useProviders()
  const { testProvider } = useProvidersApi()
  const client = useQueryClient()
  const cloud = (providers.data ?? []).filter((p) => p.needsKey)
  const [id, setId] = useState<string>()
  const [key, setKey] = useState('')
  const [baseUrl, setBaseUrl] = useState<string>()
  const chosenId = id ?? cloud[0]?.id
  const provider = cloud.find((p) => p.id === chosenId)
  const url = (baseUrl ?? provider?.baseUrl ?? '').trim()
  const urlError =
    url !== '' && !HTTP_URL.test(url) ? 'Enter a URL that starts with http:// or https://.' : undefined
  // The key and the URL are tested as typed; nothing is saved or made active unless the test passes.
  const test = useMutation({
    mutationFn: async () => {
      if (!chosenId) throw new Error('Choose a provider.')
      const changedUrl = url !== '' && url !== provider?.baseUrl ? url : undefined
      const result = await testProvider(chosenId, {
        apiKey: key.trim(),
        ...(changedUrl && { baseUrl: changedUrl }),
      })
      if (!result.ok) return result
      await settingsApi.setSecret({ name: `providers.${chosenId}.apiKey`, value: key.trim() })
      await settingsApi.update({
        provider: { active: chosenId, model: null },
        ...(changedUrl && { providers: { [chosenId]: { baseUrl: changedUrl } } }),
        ui: { providerWorked: true, setupChoice: 'cloud' },
      })
      await client.invalidateQueries({ queryKey: queryKeys.providers() })
      await client.invalidateQueries({ queryKey: SETTINGS_KEY })
      return result
    },
  })
  return (
    <Path title="Enter a cloud key" chosen={chosen}>
      <p className="muted">Fastest and strongest; your requests go to the provider you pick.</p>
      <form
        className="guide-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          if (!key.trim() || urlError) return
          remember()
          test.mutate()
        }}
      >
        <label className="guide-field">
          Provider
          <select
            className="input"
            value={chosenId ?? ''}
            onChange={(e) => {
              setId(e.currentTarget.value)
              setBaseUrl(undefined)
              test.reset()
            }}
          >
            {cloud.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="guide-field">
          Base URL
          <input
            className="input"
            type="url"
            inputMode="url"
            spellCheck={false}
            value={baseUrl ?? provider?.baseUrl ?? ''}
            aria-invalid={urlError ? true : undefined}
            aria-describedby={urlError ? 'guide-url-error' : undefined}
            onChange={(e) => setBaseUrl(e.currentTarget.value)}
          />
        </label>
        {urlError && (
          <p id="guide-url-error" className="error-text">
            {urlError}
          </p>
        )}
        <label className="guide-field">
          API key
          <input
            className="input"
            type="password"
            autoComplete="off"
            value={key}
            onChange={(e) => setKey(e.currentTarget.value)}
          />
        </label>
        <button
          type="submit"
          className="button"
          disabled={!key.trim() || Boolean(urlError) || test.isPending}
        >
          Test and save
        </button>
      </form>
      <TestLine test={test} failed="Nothing was saved: check the key and the base URL, then try again." />
    </Path>
  )
}

/**
 * Shown on the chat page while no provider works: three ways to get one, each ending with a live
 * connection test. Once a test passes (here or at start) it is never shown again.
 */
export function FirstRunGuide({
  settings,
  compact = false,
}: {
  settings: PublicSettings
  compact?: boolean
}) {
  const settingsApi = useSettingsApi()
  const { listProviders, testProvider } = useProvidersApi()
  const client = useQueryClient()
  const active = useQuery({
    queryKey: queryKeys.firstRunTest(),
    enabled: !settings.ui.providerWorked,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      // The effective provider (BUREAU_PROVIDER may override settings.json), as chats use it.
      const providers = await listProviders()
      const effective = providers.find((p) => p.active)
      const id = effective?.id ?? settings.provider.active
      const result = await testProvider(id)
      if (result.ok) {
        await settingsApi.update({ ui: { providerWorked: true } })
        await client.invalidateQueries({ queryKey: SETTINGS_KEY })
      }
      return { ...result, name: effective?.name ?? id }
    },
  })
  const [choice, setChoice] = useState<Choice | null>(settings.ui.setupChoice)
  // Once the conversation has messages the guide folds into one line, so they and any error stay in view.
  const [open, setOpen] = useState(false)
  if (settings.ui.providerWorked || !active.data || active.data.ok) return null
  const remember = (next: Choice) => () => {
    if (next === choice) return
    setChoice(next)
    void settingsApi.update({ ui: { setupChoice: next } })
  }
  const folded = compact && !open
  return (
    <section
      className={folded ? 'first-run folded' : 'first-run'}
      aria-labelledby="first-run-title"
      ref={moreBelowHint}
    >
      <div className="first-run-head">
        <h2 id="first-run-title">No model is set up yet</h2>
        {compact && (
          <button
            type="button"
            className="button secondary"
            aria-expanded={open}
            aria-controls="first-run-body"
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide the ways to set one up' : 'Set up a model…'}
          </button>
        )}
      </div>
      <div id="first-run-body" hidden={folded}>
        <p className="muted">
          Bureau could not reach {active.data.name}: {active.data.message} Choose one way to get a model:
        </p>
        <div className="guide-paths">
          <LocalPath chosen={choice === 'local'} remember={remember('local')} />
          <OllamaPath chosen={choice === 'ollama'} remember={remember('ollama')} />
          <CloudPath chosen={choice === 'cloud'} remember={remember('cloud')} />
        </div>
        <TalkOffline />
      </div>
    </section>
  )
}
