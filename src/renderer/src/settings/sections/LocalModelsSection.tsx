import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { PublicSettings } from '../../../../shared/settings'
import { Field } from '../../components/Field'
import { formatBytes } from '../../components/formatBytes'
import { Icon } from '../../components/Icon'
import { queryKeys } from '../../ipc/queryKeys'
import { DownloadProgress } from '../DownloadProgress'
import { formatSpeed } from '../formatSpeed'
import { issueFor } from '../issuesByPath'
import {
  MAX_IMPORT_BYTES,
  useCatalogue,
  useDownloads,
  useImportModelFile,
  useInstalledModels,
  useModelSpeeds,
  useModelsApi,
} from '../modelsApi'
import { SettingsSection } from '../SettingsSection'
import { useSectionForm } from '../useSectionForm'
import { useWholeNumberCheck } from '../useWholeNumberCheck'

/** The built-in llama.cpp models: installed ones, downloads, import, and when a loaded model is freed. */
export function LocalModelsSection({ settings }: { settings: PublicSettings }) {
  const modelsApi = useModelsApi()
  const client = useQueryClient()
  const installed = useInstalledModels()
  const catalogue = useCatalogue()
  const importModelFile = useImportModelFile()
  const speeds = useModelSpeeds()
  const downloads = useDownloads()
  const [problem, setProblem] = useState<string | undefined>()
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.models.all() })
  const act = useMutation({
    mutationFn: async (action: () => Promise<unknown>) => action(),
    onMutate: () => setProblem(undefined),
    onError: (error) => setProblem(error.message),
    onSettled: () => {
      void refresh()
      void client.invalidateQueries({ queryKey: queryKeys.providers() })
    },
  })
  const form = useSectionForm({ idle: String(settings.localModels.idleUnloadMinutes) }, (d) => ({
    localModels: { idleUnloadMinutes: Number(d.idle) },
  }))
  const idle = useWholeNumberCheck(form.draft.idle, 0, 1440)
  const models = installed.data ?? []

  return (
    <SettingsSection
      id="local-models"
      title="Local models"
      description="Models that run on this computer: nothing you write leaves it, no account needed."
      form={form}
      validate={idle.validate}
    >
      <h3 className="subheading">Installed</h3>
      {installed.isError && <p className="error-text">{installed.error.message}</p>}
      {installed.data && models.length === 0 && <p className="muted">No local model yet.</p>}
      <ul className="model-list" aria-label="Installed models">
        {models.map((m) => (
          <li key={m.id} className="model-row">
            <span className="model-name">
              <strong>{m.name}</strong>
              <span className="muted">
                {m.fileName} · {formatBytes(m.sizeBytes)}
              </span>
            </span>
            {m.inUse ? (
              <span className="ok-text">
                <Icon name="check" size={14} /> In use
              </span>
            ) : (
              <button
                type="button"
                className="button secondary"
                onClick={() => act.mutate(() => modelsApi.use(m.id))}
              >
                Use {m.name}
              </button>
            )}
            <button
              type="button"
              className="button secondary"
              aria-label={`Delete ${m.name}`}
              onClick={() => {
                if (window.confirm(`Delete ${m.fileName} (${formatBytes(m.sizeBytes)})?`))
                  act.mutate(() => modelsApi.remove(m.id))
              }}
            >
              <Icon name="trash" size={14} /> Delete
            </button>
          </li>
        ))}
      </ul>
      <h3 className="subheading">Download a recommended model</h3>
      {catalogue.isError && <p className="error-text">{catalogue.error.message}</p>}
      <ul className="model-list" aria-label="Recommended models">
        {(catalogue.data ?? []).map((e) => {
          const download = downloads.get(e.id)
          return (
            <li key={e.id} className="model-row">
              <span className="model-name">
                <strong>{e.name}</strong>
                <span className="muted">
                  {formatBytes(e.sizeBytes)} · needs {e.minRamGiB} GB of memory · {e.licence}
                  {!e.fitsMemory && ' · more memory than this computer has'}
                </span>
                {speeds.has(e.id) && <span className="muted">{formatSpeed(speeds.get(e.id)!)}.</span>}
                {e.notes && <span className="muted">{e.notes}</span>}
              </span>
              {e.installed ? (
                <span className="muted">Installed</span>
              ) : download?.state === 'downloading' ? null : (
                <button
                  type="button"
                  className="button secondary"
                  onClick={() => act.mutate(() => modelsApi.pull(e.id))}
                >
                  <Icon name="download" size={14} /> Download {e.name}
                </button>
              )}
              {download && download.state !== 'done' && (
                <DownloadProgress
                  progress={download}
                  onCancel={() => act.mutate(() => modelsApi.cancel(e.id))}
                />
              )}
            </li>
          )
        })}
      </ul>
      <Field
        label="Use a .gguf file I already have"
        hint={`Up to ${MAX_IMPORT_BYTES / 1024 / 1024} MiB here. Larger files: run \`bureau models import <file.gguf>\` in a terminal.`}
      >
        <input
          type="file"
          accept=".gguf"
          className="input"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0]
            event.currentTarget.value = ''
            if (file) act.mutate(() => importModelFile(file))
          }}
        />
      </Field>
      <p role="status" className="test-result">
        {act.isPending && 'Working…'}
        {problem && <span className="error-text">{problem}</span>}
      </p>
      <Field
        label="Free the loaded model after (minutes idle)"
        hint="0 keeps it loaded. Default 10."
        error={idle.error ?? issueFor(form.issues, 'idleUnloadMinutes')}
      >
        <input className="input" inputMode="numeric" {...form.text('idle')} />
      </Field>
    </SettingsSection>
  )
}
