import type { ModelProgress } from '../../../shared/ipc'
import { formatBytes } from '../components/formatBytes'
import { etaText } from './modelsApi'

/** One download: a progress bar, bytes, speed and time left, or how it ended. */
export function DownloadProgress({ progress, onCancel }: { progress: ModelProgress; onCancel(): void }) {
  const total = progress.totalBytes ?? undefined
  const label = `Downloading ${progress.name}`
  return (
    <div className="model-download">
      {progress.state === 'downloading' ? (
        <>
          <progress aria-label={label} value={progress.receivedBytes} max={total} />
          <span className="muted">
            {formatBytes(progress.receivedBytes)}
            {total !== undefined && ` of ${formatBytes(total)}`}
            {progress.speed > 0 && ` · ${formatBytes(progress.speed)}/s`}
            {progress.etaSeconds !== null && ` · ${etaText(progress.etaSeconds)}`}
          </span>
          <button type="button" className="button secondary" onClick={onCancel}>
            Cancel
          </button>
        </>
      ) : (
        <span role="status" className={progress.state === 'done' ? 'ok-text' : 'error-text'}>
          {progress.state === 'done' ? `${progress.name} is installed.` : progress.message}
        </span>
      )}
    </div>
  )
}
