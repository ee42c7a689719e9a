import { z } from 'zod'

/** A server's name in settings: also the first part of its secrets' names (`mcp.<name>.env.KEY`). */
export const McpServerName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lowercase letters, digits, - and _ (at most 64)')

/**
 * One MCP server as Settings stores it. Env values and HTTP headers are secrets, stored encrypted as
 * `mcp.<name>.env.<KEY>` and `mcp.<name>.header.<Name>`; only their names are known here.
 */
export const McpServerSettings = z.looseObject({
  /** stdio: the program to start (found on PATH) and its arguments. */
  command: z.string().trim().min(1).optional(),
  args: z.array(z.string()).default([]),
  cwd: z.string().trim().min(1).optional(),
  /** HTTP: the endpoint; streamable HTTP first, then the older SSE transport. */
  url: z.url({ protocol: /^https?$/ }).optional(),
  transport: z.enum(['auto', 'streamable-http', 'sse']).default('auto'),
  disabled: z.boolean().default(false),
})
export type McpServerSettings = z.output<typeof McpServerSettings>

export const McpSettings = z.looseObject({
  servers: z.record(McpServerName, McpServerSettings).default({}),
  /** Connecting and listing tools; past it the server is reported as not answering. */
  connectTimeoutSeconds: z.number().int().min(1).max(600).default(30),
  /** One tool call; past it the call fails with TIMEOUT and the server stays connected. */
  callTimeoutSeconds: z.number().int().min(1).max(3600).default(120),
  /**
   * One tool call in all: progress notifications restart `callTimeoutSeconds`, never this.
   * Unset: ten times the call timeout, at least 600 s.
   */
  callDeadlineSeconds: z.number().int().min(1).max(86_400).optional(),
})
export type McpSettings = z.output<typeof McpSettings>
