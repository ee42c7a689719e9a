import type { McpServerStatus } from '../../../../shared/ipc'
import type { ApprovalPolicy, PublicSettings } from '../../../../shared/settings'
import { useUpdateSettings } from '../useSettings'
import { useMcpTools } from './mcpApi'

const RISK: Record<string, string> = { read: 'reads', write: 'changes files', external: 'acts outside' }

/** A connected server's tools, each with its approval policy (a `toolset.method` rule, or the default). */
export function McpServerTools({
  status,
  settings,
  open,
}: {
  status: McpServerStatus
  settings: PublicSettings
  open: boolean
}) {
  const tools = useMcpTools(status.name, status, open)
  const update = useUpdateSettings()
  if (status.state !== 'connected')
    return <p className="field-hint">Tools are listed once it is connected.</p>
  if (tools.isError) return <p className="error-text">The tools could not be listed: {tools.error.message}</p>
  if (!tools.data) return <p className="muted">Loading tools…</p>
  if (tools.data.length === 0) return <p className="field-hint">This server has no tools.</p>
  const rules = settings.approvals.rules
  return (
    <ul className="mcp-tools" aria-label={`Tools of ${status.name}`}>
      {tools.data.map((tool) => (
        <li key={tool.ruleKey}>
          <div className="mcp-tool-text">
            <code>{tool.name}</code> <span className="muted">({RISK[tool.risk]})</span>
            {tool.description && <span className="mcp-tool-description">{tool.description}</span>}
          </div>
          <select
            className="input"
            aria-label={`Approval for ${tool.name}`}
            value={rules[tool.ruleKey] ?? ''}
            onChange={(e) =>
              update.mutate({
                approvals: { rules: { [tool.ruleKey]: (e.target.value as ApprovalPolicy) || null } },
              })
            }
          >
            <option value="">Default ({settings.approvals[tool.risk]})</option>
            <option value="allow">Allow</option>
            <option value="ask">Ask</option>
            <option value="deny">Deny</option>
          </select>
        </li>
      ))}
    </ul>
  )
}
