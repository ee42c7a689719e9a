import './mcp.css'
import { useState } from 'react'
import type { PublicSettings } from '../../../../shared/settings'
import { McpImport } from './McpImport'
import { McpServerForm } from './McpServerForm'
import { McpServerRow } from './McpServerRow'
import { useMcpMutations, useMcpServers } from './mcpApi'
import { emptyForm, formOf, type ServerForm } from './mcpDraft'

type Editing = { form: ServerForm; isNew: boolean } | { importing: true }

/** MCP servers: their live state, add/edit/remove, enable, reconnect, import, and each tool's approval. */
export function McpSection({ settings }: { settings: PublicSettings }) {
  const servers = useMcpServers()
  const { save } = useMcpMutations()
  const [editing, setEditing] = useState<Editing>()
  const names = servers.data?.map((s) => s.name) ?? []
  return (
    <section className="settings-card" aria-labelledby="mcp-title" id="mcp">
      <header>
        <h2 id="mcp-title">MCP servers</h2>
        <p className="muted">
          Each connected server's tools become a toolset; tools not marked read-only ask before they run.
        </p>
      </header>
      {servers.isError && (
        <p className="error-text">The servers could not be listed: {servers.error.message}</p>
      )}
      {servers.data?.length === 0 && <p className="muted">No MCP servers yet.</p>}
      {servers.data && servers.data.length > 0 && (
        <ul className="mcp-servers" aria-label="MCP servers">
          {servers.data.map((status) => (
            <McpServerRow
              key={status.name}
              status={status}
              settings={settings}
              onEdit={() => setEditing({ form: formOf(settings, status.name), isNew: false })}
            />
          ))}
        </ul>
      )}
      {editing && 'importing' in editing && <McpImport onDone={() => setEditing(undefined)} />}
      {editing && 'form' in editing && (
        <McpServerForm
          key={editing.form.name || 'new'}
          initial={editing.form}
          isNew={editing.isNew}
          taken={names}
          onSave={async (draft) => {
            await save.mutateAsync(draft)
            setEditing(undefined)
          }}
          onCancel={() => setEditing(undefined)}
        />
      )}
      {!editing && (
        <div className="save-actions">
          <button
            type="button"
            className="button secondary"
            onClick={() => setEditing({ form: emptyForm(), isNew: true })}
          >
            Add server
          </button>
          <button type="button" className="button secondary" onClick={() => setEditing({ importing: true })}>
            Import from another app
          </button>
        </div>
      )}
    </section>
  )
}
