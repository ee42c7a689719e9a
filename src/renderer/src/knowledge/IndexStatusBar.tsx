import type { KnowledgeStatus } from '../../../shared/ipc'
import { useIndexStatus } from './knowledgeApi'

function summary(status: KnowledgeStatus): string {
  const kind = status.mode === 'hybrid' ? 'full text + vectors' : 'full text'
  if (status.state === 'off') return 'Document index is off.'
  if (status.state === 'indexing')
    return `Indexing ${status.done} of ${status.total} files${status.current ? `: ${status.current}` : ''}${status.throttled ? ' (slowed while a chat runs)' : ''}`
  if (status.state === 'paused') return `Indexing paused at ${status.done} of ${status.total} files.`
  if (status.state === 'failed') return `Indexing failed: ${status.message ?? 'unknown error'}`
  return `${status.files} documents indexed (${kind}).`
}

/** One line of index progress on the Workspace page, with pause/resume and the files that failed. */
export function IndexStatusBar() {
  const [status, pause] = useIndexStatus()
  const data = status.data
  if (!data) return null
  const pausable = data.state === 'indexing' || data.state === 'paused'
  return (
    <div className="index-status" role="status" data-testid="index-status">
      <span>{summary(data)}</span>
      {pausable && (
        <button
          type="button"
          className="button secondary small"
          onClick={() => void pause(data.state !== 'paused')}
        >
          {data.state === 'paused' ? 'Resume' : 'Pause'}
        </button>
      )}
      {data.errors.length > 0 && (
        <details>
          <summary>{data.errors.length} file(s) could not be indexed</summary>
          <ul>
            {data.errors.map((problem) => (
              <li key={problem.path}>
                {problem.path}: {problem.message}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  )
}
