import { useState } from 'react'
import type { WorkspaceEntry } from '../../../shared/ipc'
import { FileBadge } from '../components/FileBadge'
import { formatBytes } from '../components/formatBytes'
import { Icon } from '../components/Icon'
import { EntryNameForm } from './EntryNameForm'

export interface RowActions {
  open(entry: WorkspaceEntry): void
  preview(entry: WorkspaceEntry): void
  rename(entry: WorkspaceEntry, name: string): Promise<void>
  remove(entry: WorkspaceEntry): Promise<void>
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1)

/** The name cell's second line: a backup says whose, a search hit says where. */
function Detail({ entry, showFolder }: { entry: WorkspaceEntry; showFolder: boolean }) {
  if (entry.backupOf)
    return (
      <span className="file-detail">
        Backup {entry.backupOf.number} of {baseName(entry.backupOf.path)}
      </span>
    )
  if (showFolder)
    return <span className="file-detail">in {entry.path.slice(0, entry.path.lastIndexOf('/')) || '/'}</span>
  return null
}

/** One file or folder: open, preview, rename in place, delete after a confirmation. */
export function FileRow({
  entry,
  highlighted,
  desktop,
  showFolder,
  actions,
}: {
  entry: WorkspaceEntry
  highlighted: boolean
  desktop: boolean
  showFolder: boolean
  actions: RowActions
}) {
  const [mode, setMode] = useState<'normal' | 'renaming' | 'confirming'>('normal')
  const [problem, setProblem] = useState<string>()
  const folder = entry.type === 'directory'
  return (
    <tr data-path={entry.path} className={highlighted ? 'highlight' : undefined}>
      <td className="file-cell">
        {mode === 'renaming' ? (
          <EntryNameForm
            initial={entry.name}
            inputLabel={`New name for ${entry.name}`}
            submitLabel="Rename"
            className="rename-form"
            errorId={`rename-error-${entry.path}`}
            eager
            onSubmit={(name) => actions.rename(entry, name)}
            onDone={() => setMode('normal')}
          />
        ) : (
          <button
            type="button"
            className="file-name"
            onClick={() => actions.open(entry)}
            aria-label={
              folder ? `Open folder ${entry.name}` : `${desktop ? 'Open' : 'Download'} ${entry.name}`
            }
          >
            {folder ? (
              <span className="folder-icon">
                <Icon name="folder" size={18} />
              </span>
            ) : (
              <FileBadge name={entry.name} />
            )}
            <span className="file-label">
              <span className="file-title">{entry.name}</span>
              <Detail entry={entry} showFolder={showFolder} />
            </span>
          </button>
        )}
        {mode === 'confirming' && (
          <fieldset className="delete-confirm" aria-label={`Delete ${entry.name}?`}>
            <span>
              Delete {entry.name}
              {folder ? ' and everything in it' : ''}? It goes to the workspace trash; Undo brings it back.
            </span>
            <button
              type="button"
              className="button small danger"
              onClick={() =>
                void actions.remove(entry).catch((e: Error) => {
                  setProblem(e.message)
                  setMode('normal')
                })
              }
            >
              Delete
            </button>
            <button type="button" className="button small secondary" onClick={() => setMode('normal')}>
              Cancel
            </button>
          </fieldset>
        )}
        {problem && (
          <span className="field-error" role="alert">
            {problem}
          </span>
        )}
      </td>
      <td className="numeric muted size-cell">{folder ? '' : formatBytes(entry.size)}</td>
      <td className="muted modified-cell">{new Date(entry.modifiedAt).toLocaleString()}</td>
      <td className="row-actions">
        {!folder && (
          <button
            type="button"
            className="ghost-button"
            onClick={() => actions.preview(entry)}
            aria-label={`Preview ${entry.name}`}
          >
            <Icon name="eye" size={14} />
            <span className="narrow-hidden-label">Preview</span>
          </button>
        )}
        <button
          type="button"
          className="ghost-button"
          aria-label={`Rename ${entry.name}`}
          onClick={() => {
            setProblem(undefined)
            setMode('renaming')
          }}
        >
          <Icon name="pencil" size={14} />
        </button>
        <button
          type="button"
          className="ghost-button"
          aria-label={`Delete ${entry.name}`}
          onClick={() => {
            setProblem(undefined)
            setMode('confirming')
          }}
        >
          <Icon name="trash" size={14} />
        </button>
      </td>
    </tr>
  )
}
