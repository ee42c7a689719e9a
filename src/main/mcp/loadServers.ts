import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { McpSettings } from '../../shared/settings'
import { type McpServerConfig, parseMcpServers } from './config'

/** What the MCP host reads from the settings service. */
export interface McpSettingsPort {
  mcp(): McpSettings
  getSecret(name: string): Promise<string | undefined>
  listSecretNames(prefix?: string): string[]
}

export const MCP_FILE = 'mcp.json'

async function secretsUnder(port: McpSettingsPort, prefix: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const name of port.listSecretNames(prefix)) {
    const value = await port.getSecret(name)
    if (value !== undefined) out[name.slice(prefix.length)] = value
  }
  return out
}

async function fromSettings(port: McpSettingsPort): Promise<McpServerConfig[]> {
  const servers: McpServerConfig[] = []
  for (const [name, s] of Object.entries(port.mcp().servers)) {
    servers.push({
      name,
      origin: 'settings',
      ...(s.command ? { command: s.command } : {}),
      args: s.args,
      ...(s.cwd ? { cwd: s.cwd } : {}),
      env: await secretsUnder(port, `mcp.${name}.env.`),
      ...(s.url ? { url: s.url } : {}),
      transport: s.transport,
      headers: await secretsUnder(port, `mcp.${name}.header.`),
      disabled: s.disabled,
    })
  }
  return servers
}

/**
 * Servers of `<data-dir>/mcp.json` (the common format, as the user wrote it) and of Settings; a
 * name in both is the Settings one. A file that does not parse is a problem, and its servers are left out.
 */
export async function loadServers(
  dataDir: string,
  port: McpSettingsPort,
): Promise<{ servers: McpServerConfig[]; problems: string[] }> {
  const problems: string[] = []
  let fileServers: McpServerConfig[] = []
  try {
    const parsed = parseMcpServers(await readFile(join(dataDir, MCP_FILE), 'utf8'), 'mcp.json')
    if (parsed.ok) {
      fileServers = parsed.servers
      problems.push(...parsed.refused.map((reason) => `${MCP_FILE}: ${reason}`))
    } else problems.push(`${MCP_FILE} was not used: ${parsed.error}`)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      problems.push(`${MCP_FILE} could not be read: ${(error as Error).message}`)
  }
  const settingsServers = await fromSettings(port)
  const taken = new Set(settingsServers.map((s) => s.name))
  return { servers: [...settingsServers, ...fileServers.filter((s) => !taken.has(s.name))], problems }
}
