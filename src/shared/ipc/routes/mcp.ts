import { z } from 'zod'
import { McpServerName } from '../../settings'
import { route } from '../defineContract'

export const McpServerStatus = z.object({
  name: z.string(),
  /** Where it is configured: Settings, or `<data-dir>/mcp.json`. */
  origin: z.enum(['settings', 'mcp.json']),
  state: z.enum(['disabled', 'connecting', 'connected', 'failed']),
  transport: z.enum(['stdio', 'streamable-http', 'sse']).optional(),
  /** The toolset its tools are registered as. */
  toolset: z.string().optional(),
  toolCount: z.number().int().nonnegative(),
  lastError: z.string().optional(),
})
export type McpServerStatus = z.infer<typeof McpServerStatus>

/** One tool of a connected server, with the approval rule key (`toolset.method`) Settings sets. */
export const McpToolInfo = z.object({
  /** The server's own tool name. */
  name: z.string(),
  method: z.string(),
  /** `toolset.method`: the key of `approvals.rules`. */
  ruleKey: z.string(),
  description: z.string(),
  risk: z.enum(['read', 'write', 'external']),
})
export type McpToolInfo = z.infer<typeof McpToolInfo>

const SecretMap = z
  .record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,127}$/, 'letters, digits, - and _'),
    z.string().nullable(),
  )
  .default({})

/**
 * A server added or edited in Settings. `env` and `headers` are secrets: a value stores it (encrypted),
 * `null` clears it, a name left out keeps what is stored.
 */
export const McpServerDraft = z
  .object({
    name: McpServerName,
    command: z.string().trim().min(1).optional(),
    args: z.array(z.string()).default([]),
    cwd: z.string().trim().min(1).optional(),
    url: z.url({ protocol: /^https?$/ }).optional(),
    transport: z.enum(['auto', 'streamable-http', 'sse']).default('auto'),
    disabled: z.boolean().default(false),
    env: SecretMap,
    headers: SecretMap,
  })
  .refine((d) => Boolean(d.command) !== Boolean(d.url), {
    message: 'give either a command (stdio) or a URL (HTTP)',
  })
export type McpServerDraft = z.input<typeof McpServerDraft>

const ByName = z.object({ name: z.string().min(1) })

export const mcpRoutes = {
  'mcp.servers': route({
    summary: 'Configured MCP servers with their connection state, tool count and last error.',
    input: z.void(),
    output: z.array(McpServerStatus),
  }),
  'mcp.tools': route({
    summary: 'The tools of one connected MCP server, with their risk and approval rule key.',
    input: ByName,
    output: z.array(McpToolInfo),
  }),
  'mcp.reconnect': route({
    summary: 'Reconnects one MCP server (after a crash, or to pick up new tools).',
    input: ByName,
    output: McpServerStatus,
  }),
  'mcp.save': route({
    summary:
      'Adds or replaces a server in Settings (env values and headers stored encrypted) and connects it.',
    input: McpServerDraft,
    output: McpServerStatus,
  }),
  'mcp.setEnabled': route({
    summary: 'Enables (connects) or disables (disconnects) a server configured in Settings.',
    input: ByName.extend({ enabled: z.boolean() }),
    output: McpServerStatus,
  }),
  'mcp.remove': route({
    summary: 'Removes a server from Settings with its stored secrets; its tools go away.',
    input: ByName,
    output: z.object({ removed: z.string() }),
  }),
  'mcp.import': route({
    summary:
      'Adds the servers of a pasted {"mcpServers": {...}} config; env values and headers are stored encrypted.',
    input: z.object({ json: z.string().min(2).max(1_000_000) }),
    output: z.object({ imported: z.array(z.string()) }),
  }),
}

export const mcpEvents = {
  /** A server's state changed (connecting, connected, failed, disabled, removed): the whole list. */
  'mcp.changed': z.array(McpServerStatus),
}
