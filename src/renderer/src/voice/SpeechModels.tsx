import './voice.css'
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import type { SpeechModelSummary } from '../../../shared/ipc'
import { formatBytes } from '../components/formatBytes'
import { Icon } from '../components/Icon'
import { DownloadProgress } from '../settings/DownloadProgress'
import { useSpeechModelActions, useSpeechModels } from './voiceApi'

const LANGUAGES: Record<string, string> = {
  multi: 'many languages',
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
}

function ModelRow({
  model,
  act,
}: {
  model: SpeechModelSummary
  act: (action: () => Promise<unknown>) => void
}) {
  const actions = useSpeechModelActions()
  const [confirming, setConfirming] = useState(false)
  const download = model.download
  const downloading = download?.state === 'downloading'
  const resume = !model.installed && model.partialBytes > 0
  return (
    <li className="model-row" aria-label={model.name}>
      <span className="model-name">
        <strong>{model.name}</strong>
        <span className="muted">
          {formatBytes(model.installedBytes ?? model.sizeBytes)} ·{' '}
          {LANGUAGES[model.language] ?? model.language} · {model.licence}
        </span>
        {!model.pinned && !model.installed && (
          <span className="muted">Checksum recorded at the first download.</span>
        )}
      </span>
      {model.installed && !confirming && (
        <>
          <span className="ok-text">
            <Icon name="check" size={14} /> Installed
          </span>
          <button
            type="button"
            className="button secondary"
            aria-label={`Remove ${model.name}`}
            onClick={() => setConfirming(true)}
          >
            <Icon name="trash" size={14} /> Remove
          </button>
        </>
      )}
      {confirming && (
        <fieldset className="speech-confirm">
          <legend>
            Remove {model.name} ({formatBytes(model.installedBytes ?? model.sizeBytes)})?
          </legend>
          <button
            type="button"
            className="button danger"
            onClick={() => {
              setConfirming(false)
              act(() => actions.remove(model.id))
            }}
          >
            Remove
          </button>
          <button type="button" className="button secondary" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </fieldset>
      )}
      {!model.installed && !downloading && (
        <button type="button" className="button secondary" onClick={() => act(() => actions.pull(model.id))}>
          <Icon name="download" size={14} /> {resume ? 'Resume' : 'Download'} {model.name}
          {resume && ` (${formatBytes(model.partialBytes)} kept)`}
        </button>
      )}
      {!model.installed && resume && !downloading && (
        <button
          type="button"
          className="button secondary"
          aria-label={`Discard the kept part of ${model.name}`}
          onClick={() => act(() => actions.remove(model.id))}
        >
          Discard
        </button>
      )}
      {download && download.state !== 'done' && (
        <DownloadProgress progress={download} onCancel={() => act(() => actions.cancel(model.id))} />
      )}
    </li>
  )
}

/** Whisper models and Piper voices: size, language, licence; download with progress, resume, remove. */
export function SpeechModels() {
  const { models, error, isPending } = useSpeechModels()
  const [problem, setProblem] = useState<string>()
  const run = useMutation({
    mutationFn: async (action: () => Promise<unknown>) => action(),
    onMutate: () => setProblem(undefined),
    onError: (e) => setProblem(e.message),
  })
  const act = (action: () => Promise<unknown>) => run.mutate(action)
  const group = (kind: SpeechModelSummary['kind']) => models.filter((m) => m.kind === kind)
  return (
    <div className="speech-models">
      {isPending && <p className="muted">Loading…</p>}
      {error && <p className="error-text">{error.message}</p>}
      {(
        [
          ['whisper', 'Recognition models (whisper.cpp)'],
          ['piper', 'Voices (Piper)'],
        ] as const
      ).map(([kind, title]) =>
        group(kind).length ? (
          <div key={kind}>
            <h3 className="subheading">{title}</h3>
            <ul className="model-list" aria-label={title}>
              {group(kind).map((m) => (
                <ModelRow key={m.id} model={m} act={act} />
              ))}
            </ul>
          </div>
        ) : null,
      )}
      <p role="status" className="test-result">
        {problem && <span className="error-text">{problem}</span>}
      </p>
    </div>
  )
}
