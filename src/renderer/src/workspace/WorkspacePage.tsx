import './workspace.css'
import { useEffect } from 'react'
import type { WorkspaceEntry } from '../../../shared/ipc'
import { useAppInfo } from '../app/appApi'
import { FileBadge } from '../components/FileBadge'
import { formatBytes } from '../components/formatBytes'
import { Icon } from '../components/Icon'
import { IndexStatusBar } from '../knowledge/IndexStatusBar'
import { PassagePreview } from '../knowledge/PassagePreview'
import { usePreview } from '../preview/previewStore'
import { Breadcrumbs } from './Breadcrumbs'
import { useWorkspaceActions, useWorkspaceListing } from './workspaceApi'
import { useWorkspaceNav } from './workspaceNav'

function sortEntries(entries: WorkspaceEntry[]): WorkspaceEntry[] {
  return [...entries].sort((a, b) =>
    a.type === b.type
      ? a.name.localeCompare(b.name, undefined, { numeric: true })
      : a.type === 'directory'
        ? -1
        : 1,
  )
}

/** The agent's world: browse the workspace folder, open or download files. */
export default function WorkspacePage() {
  const { folder, highlight, openFolder, passage, showPassage } = useWorkspaceNav()
  const desktop = useAppInfo().data?.host === 'electron'
  const openPreview = usePreview((s) => s.open)
  const list = useWorkspaceListing(folder)
  const { downloadFile, openWithSystem } = useWorkspaceActions()

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again once the listed rows are rendered
  useEffect(() => {
    if (highlight)
      document
        .querySelector(`[data-path="${CSS.escape(highlight)}"] button`)
        ?.scrollIntoView({ block: 'center' })
  }, [highlight, list.data])

  const openFile = async (entry: WorkspaceEntry) => {
    if (desktop) await openWithSystem(entry.path)
    else await downloadFile(entry.path)
  }

  return (
    <section className="page workspace-page" aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title">Workspace</h1>
        <button type="button" className="button secondary small" onClick={() => void list.refetch()}>
          <Icon name="refresh" size={14} /> Refresh
        </button>
      </div>
      <IndexStatusBar />
      {passage && <PassagePreview passage={passage} onClose={() => showPassage(undefined)} />}
      <Breadcrumbs path={folder} onOpen={openFolder} />
      {list.isError && (
        <p className="banner banner-error" role="alert">
          The workspace could not be listed: {list.error.message}
        </p>
      )}
      {list.data && list.data.length === 0 && <p className="muted empty-folder">This folder is empty.</p>}
      {list.data && list.data.length > 0 && (
        <table className="file-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col" className="numeric">
                Size
              </th>
              <th scope="col">Modified</th>
              <th scope="col">
                <span className="visually-hidden">Preview</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sortEntries(list.data).map((entry) => (
              <tr
                key={entry.path}
                data-path={entry.path}
                className={entry.path === highlight ? 'highlight' : undefined}
              >
                <td>
                  <button
                    type="button"
                    className="file-name"
                    onClick={() =>
                      entry.type === 'directory' ? openFolder(entry.path) : void openFile(entry)
                    }
                    aria-label={
                      entry.type === 'directory'
                        ? `Open folder ${entry.name}`
                        : `${desktop ? 'Open' : 'Download'} ${entry.name}`
                    }
                  >
                    {entry.type === 'directory' ? (
                      <span className="folder-icon">
                        <Icon name="folder" size={18} />
                      </span>
                    ) : (
                      <FileBadge name={entry.name} />
                    )}
                    <span>{entry.name}</span>
                  </button>
                </td>
                <td className="numeric muted">{entry.type === 'file' ? formatBytes(entry.size) : ''}</td>
                <td className="muted">{new Date(entry.modifiedAt).toLocaleString()}</td>
                <td>
                  {entry.type === 'file' && (
                    <button
                      type="button"
                      className="ghost-button"
                      onClick={() => openPreview(entry.path)}
                      aria-label={`Preview ${entry.name}`}
                    >
                      <Icon name="eye" size={14} />
                      <span className="narrow-hidden-label">Preview</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
