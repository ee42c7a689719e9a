import { useState } from 'react'
import type { OllamaPullProgressEvent } from '../../../shared/ipc'
import { formatBytes } from '../components/formatBytes'
import { useOllamaPull } from './modelsApi'

function progressText(p: OllamaPullProgressEvent): string {
  if (p.state === 'done') return `${p.model} is installed in Ollama.`
  if (p.state === 'failed') return p.message ?? `The pull of ${p.model} failed.`
  if (p.completedBytes !== null && p.totalBytes)
    return `${p.status}: ${Math.floor((p.completedBytes / p.totalBytes) * 100)}% (${formatBytes(p.completedBytes)} of ${formatBytes(p.totalBytes)})`
  return p.status
}

/** Pulls a model through Ollama (`ollama pull` without a terminal), with Ollama's own progress. */
export function OllamaPull() {
  const [model, setModel] = useState('')
  const [progress, setProgress] = useState<OllamaPullProgressEvent | undefined>()
  const [problem, setProblem] = useState<string | undefined>()
  const startPull = useOllamaPull(setProgress)
  const pulling = progress?.state === 'pulling'
  const pull = () => {
    setProblem(undefined)
    startPull(model.trim()).catch((error: Error) => setProblem(error.message))
  }
  return (
    <div className="ollama-pull">
      <label>
        Pull a model through Ollama
        <input
          className="input"
          placeholder="e.g. qwen3:4b"
          value={model}
          onChange={(event) => setModel(event.currentTarget.value)}
        />
      </label>
      <button type="button" className="button secondary" disabled={!model.trim() || pulling} onClick={pull}>
        Pull
      </button>
      <p
        className={`ollama-pull-status ${progress?.state === 'failed' || problem ? 'error-text' : 'hint'}`}
        role="status"
      >
        {problem ?? (progress ? progressText(progress) : '')}
      </p>
    </div>
  )
}
