import { z } from 'zod'
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

export const mcpRoutes = {
  'mcp.servers': route({
    summary: 'Configured MCP servers with their connection state, tool count and last error.',
    input: z.void(),
    output: z.array(McpServerStatus),
  }),
  'mcp.reconnect': route({
    summary: 'Reconnects one MCP server (after a crash, or to pick up new tools).',
    input: z.object({ name: z.string().min(1) }),
    output: McpServerStatus,
  }),
  'mcp.import': route({
    summary:
      'Adds the servers of a pasted {"mcpServers": {...}} config; env values and headers are stored encrypted.',
    input: z.object({ json: z.string().min(2).max(1_000_000) }),
    output: z.object({ imported: z.array(z.string()) }),
  }),
}
