import { AppError } from '../../shared/errors'
import type { SettingsService } from '../settings'
import { importServers } from './config'
import type { McpHost } from './mcpHost'

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
  await host.start()
  return parsed.servers.map((s) => s.name)
}

export function mcpHandlers(deps: { host: McpHost; settings: SettingsService }) {
  return {
    'mcp.servers': () => deps.host.status(),
    'mcp.reconnect': ({ name }: { name: string }) => deps.host.reconnect(name),
    'mcp.import': async ({ json }: { json: string }) => ({
      imported: await importIntoSettings(deps.settings, deps.host, json),
    }),
  }
}
