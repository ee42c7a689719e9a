import { z } from 'zod'
import { McpServerName, type McpServerSettings } from '../../shared/settings'

const StringMap = z.record(z.string(), z.string())

/**
 * One server in the common `{"mcpServers": {...}}` format of other desktop clients (Claude Desktop,
 * Cursor, VS Code, Cline): stdio with `command`/`args`/`env`, or HTTP with `url`/`headers` and a `type`.
 */
const CommonServer = z
  .looseObject({
    command: z.string().trim().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: StringMap.optional(),
    cwd: z.string().trim().min(1).optional(),
    url: z.url({ protocol: /^https?$/ }).optional(),
    serverUrl: z.url({ protocol: /^https?$/ }).optional(),
    type: z.string().optional(),
    transport: z.string().optional(),
    headers: StringMap.optional(),
    disabled: z.boolean().optional(),
  })
  .refine((s) => Boolean(s.command) !== Boolean(s.url ?? s.serverUrl), {
    message: 'needs either "command" (stdio) or "url" (HTTP), not both',
  })

export const McpServersFile = z.looseObject({
  mcpServers: z.record(z.string().min(1).max(64), CommonServer),
})

/** A server ready to connect: settings or mcp.json, secrets resolved. */
export interface McpServerConfig {
  name: string
  /** Where it was configured, for messages. */
  origin: 'settings' | 'mcp.json'
  command?: string
  args: string[]
  cwd?: string
  env: Record<string, string>
  url?: string
  transport: 'auto' | 'streamable-http' | 'sse'
  headers: Record<string, string>
  disabled: boolean
}

/** A server split for Settings: the plain part and the secrets (env values, headers) to store encrypted. */
export interface ImportedServer {
  name: string
  settings: McpServerSettings
  secrets: Record<string, string>
}

function transportOf(value: string | undefined): McpServerConfig['transport'] {
  const type = (value ?? '').toLowerCase().replace(/[_\s]/g, '-')
  if (type === 'sse') return 'sse'
  if (type === 'http' || type === 'streamable-http' || type === 'streamablehttp') return 'streamable-http'
  return 'auto'
}

/** `Brave Search` -> `brave-search`: the settings name (and secret prefix) of an imported server. */
export function settingsNameOf(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|-+$/g, '')
    .slice(0, 64)
  return McpServerName.safeParse(slug).success ? slug : `server-${slug || 'x'}`.slice(0, 64)
}

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`)
    .join('; ')
}

/**
 * Names an object already has (`__proto__`, `constructor`, `toString`, …): as keys they would be
 * dropped or confused with the object's own machinery, so such a server is refused with a message.
 */
const RESERVED_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype'])

/** The `mcpServers` entries without reserved names, and a message for each one refused. */
function withoutReservedNames(json: unknown): { json: unknown; refused: string[] } {
  const servers = (json as { mcpServers?: unknown } | null)?.mcpServers
  if (typeof json !== 'object' || json === null || typeof servers !== 'object' || servers === null)
    return { json, refused: [] }
  const kept: Record<string, unknown> = Object.create(null)
  const refused: string[] = []
  for (const [name, server] of Object.entries(servers)) {
    if (RESERVED_NAMES.has(name))
      refused.push(`the server named "${name}" was not used: that name is reserved; rename it`)
    else kept[name] = server
  }
  return { json: { ...json, mcpServers: kept }, refused }
}

/**
 * Reads the common format: every server with its env and headers, or a clear error; `refused` says
 * which servers were left out and why.
 */
export function parseMcpServers(
  text: string,
  origin: McpServerConfig['origin'],
): { ok: true; servers: McpServerConfig[]; refused: string[] } | { ok: false; error: string } {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    return { ok: false, error: `not JSON (${error instanceof Error ? error.message : String(error)})` }
  }
  const { json, refused } = withoutReservedNames(raw)
  const parsed = McpServersFile.safeParse(json)
  if (!parsed.success)
    return { ok: false, error: `expected {"mcpServers": {...}}: ${issuesText(parsed.error)}` }
  const servers = Object.entries(parsed.data.mcpServers).map(([name, s]): McpServerConfig => {
    const url = s.url ?? s.serverUrl
    return {
      name,
      origin,
      ...(s.command ? { command: s.command } : {}),
      args: s.args ?? [],
      ...(s.cwd ? { cwd: s.cwd } : {}),
      env: s.env ?? {},
      ...(url ? { url } : {}),
      transport: transportOf(s.type ?? s.transport),
      headers: s.headers ?? {},
      disabled: s.disabled ?? false,
    }
  })
  return { ok: true, servers, refused }
}

/** The pasted common format as Settings entries: env values and headers become secrets. */
export function importServers(
  text: string,
): { ok: true; servers: ImportedServer[] } | { ok: false; error: string } {
  const parsed = parseMcpServers(text, 'settings')
  if (!parsed.ok) return parsed
  if (parsed.refused.length > 0) return { ok: false, error: parsed.refused.join('; ') }
  return {
    ok: true,
    servers: parsed.servers.map((server) => {
      const name = settingsNameOf(server.name)
      const secrets: Record<string, string> = {}
      for (const [key, value] of Object.entries(server.env)) secrets[`mcp.${name}.env.${key}`] = value
      for (const [key, value] of Object.entries(server.headers)) secrets[`mcp.${name}.header.${key}`] = value
      const settings: McpServerSettings = {
        args: server.args,
        transport: server.transport,
        disabled: server.disabled,
        ...(server.command ? { command: server.command } : {}),
        ...(server.cwd ? { cwd: server.cwd } : {}),
        ...(server.url ? { url: server.url } : {}),
      }
      return { name, settings, secrets }
    }),
  }
}
