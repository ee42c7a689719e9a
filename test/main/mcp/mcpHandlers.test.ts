import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMcpHost, type McpHost, mcpHandlers } from '../../../src/main/mcp'
import { silentLogger } from '../../../src/main/platform'
import { openSettings, type SettingsService } from '../../../src/main/settings'
import { createToolRegistry, createToolSession, invoke } from '../../../src/main/tools'
import type { McpServerStatus } from '../../../src/shared/ipc'
import { fixturePath } from '../../support/fixtures'
import { tempDirs } from '../../support/tempDir'

// The Settings routes against the real settings service, secrets vault and fixture server.
const dirs = tempDirs('bureau-mcp-settings-')
const TOKEN = 'fixture-token-that-must-stay-secret'
const registry = createToolRegistry()
let dataDir = ''
let settings: SettingsService
let host: McpHost
let handlers: ReturnType<typeof mcpHandlers>
const changes: McpServerStatus[][] = []

async function filesContaining(dir: string, text: string): Promise<string[]> {
  const hits: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    if ((await readFile(path, 'utf8')).includes(text)) hits.push(path)
  }
  return hits
}

beforeAll(async () => {
  dataDir = await dirs.make()
  settings = await openSettings({ dataDir })
  host = createMcpHost({
    dataDir,
    settings: {
      mcp: () => ({ ...settings.get().mcp, connectTimeoutSeconds: 10 }),
      getSecret: (name) => settings.getSecret(name),
      listSecretNames: (prefix) => settings.listSecretNames(prefix),
    },
    registry,
    logger: silentLogger,
    onChange: (status) => changes.push(status),
  })
  handlers = mcpHandlers({ host, settings })
}, 30_000)
afterAll(async () => {
  await host?.close()
  await dirs.cleanup()
})

describe('MCP servers in Settings (mcp.save, setEnabled, tools, remove)', () => {
  it('saves a stdio server with an env secret, connects it, and lists its tools with their rule keys', async () => {
    const status = await handlers['mcp.save']({
      name: 'fixture',
      command: process.execPath,
      args: [fixturePath('mcp', 'fixtureServer.mjs'), 'serve'],
      transport: 'auto',
      disabled: false,
      env: { FIXTURE_TOKEN: TOKEN },
      headers: {},
    })
    expect(status).toMatchObject({ name: 'fixture', state: 'connected', toolset: 'fixture', toolCount: 4 })
    expect(changes.some((list) => list.some((s) => s.state === 'connecting'))).toBe(true)
    const tools = handlers['mcp.tools']({ name: 'fixture' })
    expect(tools.find((t) => t.name === 'add')).toMatchObject({ ruleKey: 'fixture.add', risk: 'read' })
    expect(tools.find((t) => t.name === 'wait')).toMatchObject({ ruleKey: 'fixture.wait', risk: 'external' })
    // The env value reached the server, and no file of the data folder holds it in clear.
    const session = createToolSession({ toolsets: registry })
    const result = await invoke(session, 'fixture_token', {})
    await session.dispose()
    if (!result.ok) expect.fail(result.error)
    expect(String(result.value)).toContain(`token of ${TOKEN.length} characters`)
    expect(await filesContaining(dataDir, TOKEN)).toEqual([])
    expect(settings.get().mcp.servers.fixture?.command).toBe(process.execPath)
  }, 30_000)

  it('keeps a stored secret when saved without it, and clears it when given null', async () => {
    const base = {
      name: 'fixture',
      command: process.execPath,
      args: [fixturePath('mcp', 'fixtureServer.mjs'), 'serve'],
      transport: 'auto' as const,
      disabled: false,
      headers: {},
    }
    await handlers['mcp.save']({ ...base, env: {} })
    expect(await settings.getSecret('mcp.fixture.env.FIXTURE_TOKEN')).toBe(TOKEN)
    await handlers['mcp.save']({ ...base, env: { FIXTURE_TOKEN: null } })
    expect(settings.listSecretNames('mcp.fixture.')).toEqual([])
    const session = createToolSession({ toolsets: registry })
    const result = await invoke(session, 'fixture_token', {})
    await session.dispose()
    if (!result.ok) expect.fail(result.error)
    expect(String(result.value)).toContain('no token')
  }, 30_000)

  it('disables (tools gone), enables again, then removes the server and its secrets', async () => {
    await settings.setSecret('mcp.fixture.header.X-Test', 'x')
    expect((await handlers['mcp.setEnabled']({ name: 'fixture', enabled: false })).state).toBe('disabled')
    expect(registry.get('fixture')).toBeUndefined()
    expect((await handlers['mcp.setEnabled']({ name: 'fixture', enabled: true })).state).toBe('connected')
    expect(registry.get('fixture')).toBeDefined()
    expect(await handlers['mcp.remove']({ name: 'fixture' })).toEqual({ removed: 'fixture' })
    expect(handlers['mcp.servers']()).toEqual([])
    expect(registry.get('fixture')).toBeUndefined()
    expect(settings.get().mcp.servers.fixture).toBeUndefined()
    expect(settings.listSecretNames('mcp.fixture.')).toEqual([])
    await expect(handlers['mcp.remove']({ name: 'fixture' })).rejects.toThrow(/not a server of Settings/)
  }, 30_000)
})
