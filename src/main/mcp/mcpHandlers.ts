import { AppError } from '../../shared/errors'
import type { McpServerDraft, McpServerStatus } from '../../shared/ipc'
import type { McpServerSettings } from '../../shared/settings'
import type { SettingsService } from '../settings'
import { importServers } from './config'
import type { McpHost } from './mcpHost'

type Draft = Required<Pick<McpServerDraft, 'name' | 'args' | 'transport' | 'disabled' | 'env' | 'headers'>> &
  Omit<McpServerDraft, 'args' | 'transport' | 'disabled' | 'env' | 'headers'>

/** Stores pasted servers in Settings (env values and headers as encrypted secrets) and connects them. */
export async function importIntoSettings(
  settings: SettingsService,
  host: McpHost,
  json: string,
): Promise<string[]> {
  const parsed = importServers(json)
  if (!parsed.ok) throw new AppError('VALIDATION_FAILED', `Not imported: ${parsed.error}`)
  for (const server of parsed.servers) {
    for (const name of settings.listSecretNames(`mcp.${server.name}.`)) await settings.clearSecret(name)
    for (const [name, value] of Object.entries(server.secrets)) await settings.setSecret(name, value)
  }
  await settings.update({
    mcp: { servers: Object.fromEntries(parsed.servers.map((s) => [s.name, s.settings])) },
  })
  await host.refresh()
  return parsed.servers.map((s) => s.name)
}

/** `null` clears a secret, a value stores it, a name left out keeps what is stored. */
async function storeSecrets(
  settings: SettingsService,
  prefix: string,
  values: Record<string, string | null>,
): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const name = `${prefix}${key}`
    if (value === null) {
      if (settings.listSecretNames(name).includes(name)) await settings.clearSecret(name)
    } else await settings.setSecret(name, value)
  }
}

function statusOf(host: McpHost, name: string): McpServerStatus {
  const status = host.status().find((s) => s.name === name)
  if (!status) throw new AppError('NOT_FOUND', `No MCP server is called "${name}".`)
  return status
}

function requireSettingsServer(settings: SettingsService, name: string): McpServerSettings {
  const server = settings.get().mcp.servers[name]
  if (!server)
    throw new AppError(
      'NOT_FOUND',
      `"${name}" is not a server of Settings (servers of mcp.json are changed in that file).`,
    )
  return server
}

export function mcpHandlers(deps: { host: McpHost; settings: SettingsService }) {
  const { host, settings } = deps
  return {
    'mcp.servers': () => host.status(),
    'mcp.tools': ({ name }: { name: string }) => host.tools(name),
    'mcp.reconnect': ({ name }: { name: string }) => host.reconnect(name),
    'mcp.save': async (draft: Draft) => {
      const { name, env, headers, ...rest } = draft
      await storeSecrets(settings, `mcp.${name}.env.`, env)
      await storeSecrets(settings, `mcp.${name}.header.`, headers)
      // A whole replacement: a field cleared in the form (cwd, url) must not survive in the merge.
      await settings.update({ mcp: { servers: { [name]: null } } })
      await settings.update({ mcp: { servers: { [name]: rest } } })
      await host.refresh()
      return statusOf(host, name)
    },
    'mcp.setEnabled': async ({ name, enabled }: { name: string; enabled: boolean }) => {
      requireSettingsServer(settings, name)
      await settings.update({ mcp: { servers: { [name]: { disabled: !enabled } } } })
      await host.refresh()
      return statusOf(host, name)
    },
    'mcp.remove': async ({ name }: { name: string }) => {
      requireSettingsServer(settings, name)
      for (const secret of settings.listSecretNames(`mcp.${name}.`)) await settings.clearSecret(secret)
      await settings.update({ mcp: { servers: { [name]: null } } })
      await host.refresh()
      return { removed: name }
    },
    'mcp.import': async ({ json }: { json: string }) => ({
      imported: await importIntoSettings(settings, host, json),
    }),
  }
}
