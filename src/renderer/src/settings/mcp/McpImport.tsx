import { useId, useState } from 'react'
import { useMcpMutations } from './mcpApi'

/** Paste another app's `{"mcpServers": {...}}` (Claude Desktop, Cursor, VS Code, Cline) as is. */
export function McpImport({ onDone }: { onDone(): void }) {
  const id = useId()
  const [json, setJson] = useState('')
  const { importJson } = useMcpMutations()
  return (
    <div className="mcp-import">
      <label htmlFor={id} className="field-label">
        Configuration from another app
      </label>
      <textarea
        id={id}
        className="input mono"
        rows={6}
        aria-describedby={`${id}-hint`}
        placeholder={'{"mcpServers": {"name": {"command": "npx", "args": ["-y", "..."]}}}'}
        value={json}
        onChange={(e) => setJson(e.target.value)}
      />
      <span id={`${id}-hint`} className="field-hint">
        Environment values and headers are stored encrypted; servers with the same name are replaced.
      </span>
      <div className="save-actions">
        <button
          type="button"
          className="button primary"
          disabled={json.trim().length < 2 || importJson.isPending}
          onClick={() => importJson.mutate(json, { onSuccess: () => setJson('') })}
        >
          {importJson.isPending ? 'Importing…' : 'Import'}
        </button>
        <button type="button" className="button secondary" onClick={onDone}>
          Close
        </button>
        <span role="status" className="test-result">
          {importJson.isError && <span className="error-text">{importJson.error.message}</span>}
          {importJson.data && (
            <span className="ok-text">Imported: {importJson.data.imported.join(', ') || 'nothing'}</span>
          )}
        </span>
      </div>
    </div>
  )
}
