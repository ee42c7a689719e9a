import { useState } from 'react'
import type { McpServerStatus } from '../../../../shared/ipc'
import type { PublicSettings } from '../../../../shared/settings'
import { McpServerTools } from './McpServerTools'
import { useMcpMutations } from './mcpApi'

function stateText(status: McpServerStatus): string {
  if (status.state === 'connected')
    return `Connected · ${status.toolCount} tool${status.toolCount === 1 ? '' : 's'}`
  if (status.state === 'connecting') return 'Connecting…'
  if (status.state === 'disabled') return 'Disabled'
  return 'Failed'
}

/** One server: its live state, its last error, and what the user can do with it. */
export function McpServerRow({
  status,
  settings,
  onEdit,
}: {
  status: McpServerStatus
  settings: PublicSettings
  onEdit(): void
}) {
  const [open, setOpen] = useState(false)
  const [confirming, setConfirming] = useState(false)
  // What the user asked for until the change and the refetched list land: React Query reports the
  // mutation as pending only a tick later, and a controlled checkbox snaps back meanwhile.
  const [wanted, setWanted] = useState<boolean>()
  const { setEnabled, remove, reconnect } = useMcpMutations()
  const own = status.origin === 'settings'
  const error = setEnabled.error ?? remove.error ?? reconnect.error
  return (
    <li className="mcp-server" data-state={status.state} aria-label={`MCP server ${status.name}`}>
      <div className="mcp-server-head">
        <strong className="mono">{status.name}</strong>
        <span className={`mcp-state mcp-state-${status.state}`} role="status">
          {stateText(status)}
        </span>
        {!own && <span className="badge">from mcp.json</span>}
      </div>
      {status.lastError && (
        <p className={status.state === 'failed' ? 'error-text mcp-error' : 'warning-text mcp-error'}>
          {status.lastError}
        </p>
      )}
      <div className="mcp-server-actions">
        {own && (
          <label className="switch">
            <input
              type="checkbox"
              checked={wanted ?? status.state !== 'disabled'}
              disabled={setEnabled.isPending}
              onChange={(e) => {
                const enabled = e.target.checked
                setWanted(enabled)
                setEnabled.mutate({ name: status.name, enabled }, { onSettled: () => setWanted(undefined) })
              }}
            />
            <span>Enabled</span>
          </label>
        )}
        {status.state !== 'disabled' && (
          <button
            type="button"
            className="button small secondary"
            disabled={reconnect.isPending}
            onClick={() => reconnect.mutate(status.name)}
          >
            Reconnect
          </button>
        )}
        {own && (
          <>
            <button type="button" className="button small secondary" onClick={onEdit}>
              Edit
            </button>
            {confirming ? (
              <span className="confirm-inline">
                Remove {status.name}?
                <button
                  type="button"
                  className="button small danger"
                  disabled={remove.isPending}
                  aria-label={`Yes, remove ${status.name}`}
                  onClick={() => remove.mutate(status.name, { onSettled: () => setConfirming(false) })}
                >
                  Remove
                </button>
                <button type="button" className="button small secondary" onClick={() => setConfirming(false)}>
                  Keep
                </button>
              </span>
            ) : (
              <button
                type="button"
                className="button small secondary"
                aria-label={`Remove ${status.name}`}
                onClick={() => setConfirming(true)}
              >
                Remove
              </button>
            )}
          </>
        )}
      </div>
      {error && (
        <p className="error-text" role="alert">
          {error.message}
        </p>
      )}
      {status.state === 'connected' && (
        <details onToggle={(e) => setOpen(e.currentTarget.open)}>
          <summary>Tools and approvals</summary>
          {open && <McpServerTools status={status} settings={settings} open={open} />}
        </details>
      )}
    </li>
  )
}
