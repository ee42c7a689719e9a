import { useState } from 'react'
import type { AgentStep, ReturnedFile } from '../../../shared/ipc'
import { useAppInfo } from '../app/appApi'
import { useNavigation } from '../app/navigationStore'
import { usePreview } from '../preview/previewStore'
import { useWorkspaceActions } from '../workspace/workspaceApi'
import { useWorkspaceNav } from '../workspace/workspaceNav'
import { FileBadge } from './FileBadge'
import { formatBytes } from './formatBytes'
import { Icon } from './Icon'

/** A file the agent returned: open it (desktop) or download it (web), or show it in the workspace. */
export function ReturnedFileChip({ file, steps = [] }: { file: ReturnedFile; steps?: readonly AgentStep[] }) {
  const openPreview = usePreview((s) => s.open)
  const host = useAppInfo().data?.host
  const go = useNavigation((s) => s.go)
  const reveal = useWorkspaceNav((s) => s.reveal)
  const { downloadFile, openWithSystem } = useWorkspaceActions()
  const [error, setError] = useState<string | undefined>()
  const desktop = host === 'electron'

  const primary = async () => {
    setError(undefined)
    try {
      if (desktop) setError(await openWithSystem(file.agentPath))
      else await downloadFile(file.agentPath)
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }

  return (
    <li className="chip chip-returned" data-testid="returned-file">
      <FileBadge name={file.name} />
      <span className="chip-body">
        <span className="chip-name" title={file.agentPath}>
          {file.name}
        </span>
        <span className="chip-meta" title={file.agentPath}>
          {file.size !== undefined && <span>{formatBytes(file.size)} · </span>}
          <span>{file.agentPath}</span>
        </span>
        {error && (
          <span className="chip-status chip-error-text" role="alert">
            {error}
          </span>
        )}
      </span>
      <button
        type="button"
        className="chip-action"
        onClick={() => openPreview(file.agentPath, steps)}
        aria-label={`Preview ${file.name}`}
      >
        <Icon name="eye" size={15} />
        <span className="narrow-hidden-label">Preview</span>
      </button>
      <button
        type="button"
        className="chip-action"
        onClick={primary}
        aria-label={`${desktop ? 'Open' : 'Download'} ${file.name}`}
      >
        <Icon name={desktop ? 'open' : 'download'} size={15} />
        <span className="narrow-hidden-label">{desktop ? 'Open' : 'Download'}</span>
      </button>
      <button
        type="button"
        className="chip-action"
        aria-label={`Show ${file.name} in the workspace`}
        onClick={() => {
          reveal(file.agentPath)
          go('workspace')
        }}
      >
        <Icon name="folder" size={15} />
      </button>
    </li>
  )
}
