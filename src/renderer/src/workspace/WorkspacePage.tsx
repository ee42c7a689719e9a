import './workspace.css'
import { useEffect, useRef, useState } from 'react'
import type { WorkspaceEntry } from '../../../shared/ipc'
import { useAppInfo } from '../app/appApi'
import { Icon } from '../components/Icon'
import { IndexStatusBar } from '../knowledge/IndexStatusBar'
import { PassagePreview } from '../knowledge/PassagePreview'
import { usePreview } from '../preview/previewStore'
import { Breadcrumbs } from './Breadcrumbs'
import { EntryNameForm } from './EntryNameForm'
import { FileRow, type RowActions } from './FileRow'
import {
  useWorkspaceActions,
  useWorkspaceChanges,
  useWorkspaceListing,
  useWorkspaceRoot,
  useWorkspaceSearch,
} from './workspaceApi'
import { useWorkspaceNav } from './workspaceNav'

function sortEntries(entries: readonly WorkspaceEntry[]): WorkspaceEntry[] {
  return [...entries].sort((a, b) =>
    a.type === b.type
      ? a.name.localeCompare(b.name, undefined, { numeric: true })
      : a.type === 'directory'
        ? -1
        : 1,
  )
}

/** What the page last did, said once in the status line; a delete carries its Undo. */
type Note = { text: string; undo?: string | undefined; error?: boolean }

/** The agent's world: browse, search, upload, make folders, rename and delete (with Undo), preview. */
export default function WorkspacePage() {
  const { folder, highlight, openFolder, passage, showPassage, reveal } = useWorkspaceNav()
  const desktop = useAppInfo().data?.host === 'electron'
  const openPreview = usePreview((s) => s.open)
  const list = useWorkspaceListing(folder)
  const root = useWorkspaceRoot()
  const { downloadFile, openWithSystem } = useWorkspaceActions()
  const act = useWorkspaceChanges()
  const [query, setQuery] = useState('')
  const search = useWorkspaceSearch(query)
  const [creating, setCreating] = useState(false)
  const [note, setNote] = useState<Note>()
  const upload = useRef<HTMLInputElement>(null)
  const searching = query.trim() !== ''
  const entries = searching ? search.data?.entries : list.data

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again once the listed rows are rendered
  useEffect(() => {
    if (highlight)
      document
        .querySelector(`[data-path="${CSS.escape(highlight)}"] button`)
        ?.scrollIntoView({ block: 'center' })
  }, [highlight, list.data])

  const fail = (error: unknown) =>
    setNote({ text: error instanceof Error ? error.message : String(error), error: true })
  const actions: RowActions = {
    open: (entry) => {
      if (entry.type === 'directory') {
        setQuery('')
        return openFolder(entry.path)
      }
      if (searching) {
        setQuery('')
        return reveal(entry.path)
      }
      void (desktop ? openWithSystem(entry.path) : downloadFile(entry.path)).catch(fail)
    },
    preview: (entry) => openPreview(entry.path),
    rename: async (entry, name) => {
      const renamed = await act.rename(entry.path, name)
      setNote({ text: `Renamed ${entry.name} to ${renamed.name}.` })
    },
    remove: async (entry) => {
      const deleted = await act.remove(entry.path)
      setNote({ text: `Deleted ${entry.name}.`, undo: deleted.trashId })
    },
  }
  const uploadFiles = async (files: readonly File[]) => {
    const saved: string[] = []
    for (const file of files) {
      try {
        saved.push((await act.upload(folder, file)).name)
      } catch (error) {
        fail(error)
        return
      }
    }
    if (saved.length > 0) setNote({ text: `Uploaded ${saved.join(', ')}.` })
  }

  return (
    <section className="page workspace-page" aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title">Workspace</h1>
        <button type="button" className="button secondary small" onClick={() => void list.refetch()}>
          <Icon name="refresh" size={14} /> Refresh
        </button>
      </div>
      {root.data && (
        <p className="workspace-root muted">
          On this computer: <code data-testid="workspace-root">{root.data.hostPath}</code>
        </p>
      )}
      <IndexStatusBar />
      {passage && <PassagePreview passage={passage} onClose={() => showPassage(undefined)} />}
      <div className="workspace-tools">
        <label className="search workspace-search">
          <Icon name="search" size={14} />
          <input
            type="search"
            aria-label="Search the workspace"
            placeholder="Search file names"
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && query) {
                e.stopPropagation()
                setQuery('')
              }
            }}
          />
        </label>
        <button type="button" className="button small" onClick={() => upload.current?.click()}>
          <Icon name="upload" size={14} /> Upload
        </button>
        <input
          ref={upload}
          type="file"
          multiple
          hidden
          aria-label="Files to upload"
          onChange={(e) => {
            const files = [...(e.currentTarget.files ?? [])]
            e.currentTarget.value = ''
            void uploadFiles(files)
          }}
        />
        <button type="button" className="button small secondary" onClick={() => setCreating(true)}>
          <Icon name="plus" size={14} /> New folder
        </button>
      </div>
      {creating && (
        <EntryNameForm
          initial=""
          inputLabel="Folder name"
          placeholder="Folder name"
          submitLabel="Create"
          className="new-folder"
          formLabel="New folder"
          errorId="new-folder-error"
          onSubmit={async (name) => {
            const made = await act.mkdir(folder, name)
            setNote({ text: `Created the folder ${made.name}.` })
          }}
          onDone={() => setCreating(false)}
        />
      )}
      <p className={note?.error ? 'workspace-note error-text' : 'workspace-note'} role="status">
        {note?.text}
        {note?.undo && (
          <button
            type="button"
            className="ghost-button"
            onClick={() => {
              const trashId = note.undo
              if (!trashId) return
              void act
                .restore(trashId)
                .then((entry) => setNote({ text: `${entry.name} is back.` }))
                .catch(fail)
            }}
          >
            Undo
          </button>
        )}
      </p>
      {searching ? (
        <p className="muted search-summary">
          {search.isPending
            ? 'Searching…'
            : `${search.data?.entries.length ?? 0} found for “${query.trim()}” in the whole workspace${search.data?.truncated ? ' (the first 200)' : ''}.`}
        </p>
      ) : (
        <Breadcrumbs path={folder} onOpen={openFolder} />
      )}
      {(searching ? search : list).isError && (
        <p className="banner banner-error" role="alert">
          The workspace could not be {searching ? 'searched' : 'listed'}:{' '}
          {(searching ? search : list).error?.message}
        </p>
      )}
      {!searching && list.data && list.data.length === 0 && (
        <p className="muted empty-folder">This folder is empty. Upload files or ask Bureau to write some.</p>
      )}
      {entries && entries.length > 0 && (
        <table className="file-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col" className="numeric size-cell">
                Size
              </th>
              <th scope="col" className="modified-cell">
                Modified
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sortEntries(entries).map((entry) => (
              <FileRow
                key={entry.path}
                entry={entry}
                highlighted={entry.path === highlight}
                desktop={desktop}
                showFolder={searching}
                actions={actions}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
