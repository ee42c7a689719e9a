import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createMcpHost, importIntoSettings, importServers, parseMcpServers } from '../../../src/main/mcp'
import { silentLogger } from '../../../src/main/platform'
import { openSettings } from '../../../src/main/settings'
import { createToolRegistry } from '../../../src/main/tools'
import { isSecretName } from '../../../src/shared/settings'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-mcp-config-')
afterAll(() => dirs.cleanup())

// The shape other desktop clients write (Claude Desktop, Cursor, VS Code), pasted as is.
const PASTED = JSON.stringify({
  mcpServers: {
    'Brave Search': { command: 'npx', args: ['-y', 'brave-search'], env: { BRAVE_API_KEY: 'sk-brave-123' } },
    docs: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer tok-9' } },
    legacy: { type: 'sse', url: 'https://old.example.com/sse', disabled: true },
  },
})

describe('MCP server config', () => {
  it('reads the common {"mcpServers": {...}} format', () => {
    const parsed = parseMcpServers(PASTED, 'mcp.json')
    if (!parsed.ok) expect.fail(parsed.error)
    expect(parsed.servers.map((s) => [s.name, s.command ?? s.url, s.transport])).toEqual([
      ['Brave Search', 'npx', 'auto'],
      ['docs', 'https://mcp.example.com/mcp', 'streamable-http'],
      ['legacy', 'https://old.example.com/sse', 'sse'],
    ])
    expect(parsed.servers[0]?.env).toEqual({ BRAVE_API_KEY: 'sk-brave-123' })
  })

  it('refuses a server with neither or both of command and url, and text that is not JSON', () => {
    const both = parseMcpServers('{"mcpServers": {"x": {"command": "a", "url": "https://a.b/"}}}', 'mcp.json')
    expect(both.ok).toBe(false)
    if (!both.ok) expect(both.error).toMatch(/mcpServers\.x.*command.*url/)
    expect(parseMcpServers('{mcpServers', 'mcp.json').ok).toBe(false)
  })

  it('refuses servers named like object machinery (__proto__, constructor) with a reason, and an import of them', () => {
    const text =
      '{"mcpServers": {"__proto__": {"command": "a"}, "toString": {"command": "b"}, "ok": {"command": "c"}}}'
    const parsed = parseMcpServers(text, 'mcp.json')
    if (!parsed.ok) expect.fail(parsed.error)
    expect(parsed.servers.map((s) => s.name)).toEqual(['ok'])
    expect(parsed.refused).toEqual([
      'the server named "__proto__" was not used: that name is reserved; rename it',
      'the server named "toString" was not used: that name is reserved; rename it',
    ])
    const imported = importServers('{"mcpServers": {"__proto__": {"command": "a"}}}')
    expect(imported.ok).toBe(false)
    if (!imported.ok) expect(imported.error).toContain('"__proto__" was not used')
  })

  it('imports into Settings with env values and headers encrypted, never in settings.json', async () => {
    const dataDir = await dirs.make()
    const settings = await openSettings({ dataDir, env: () => undefined, notify: () => undefined })
    const host = createMcpHost({
      dataDir,
      settings: {
        mcp: () => ({ ...settings.get().mcp, servers: {} }),
        getSecret: (n) => settings.getSecret(n),
        listSecretNames: (p) => settings.listSecretNames(p),
      },
      registry: createToolRegistry(),
      logger: silentLogger,
    })
    expect(isSecretName('mcp.brave-search.env.BRAVE_API_KEY')).toBe(true)
    const names = await importIntoSettings(settings, host, PASTED)
    expect(names).toEqual(['brave-search', 'docs', 'legacy'])
    expect(settings.get().mcp.servers['brave-search']).toMatchObject({
      command: 'npx',
      args: ['-y', 'brave-search'],
    })
    expect(settings.get().mcp.servers.legacy?.disabled).toBe(true)
    expect(await settings.getSecret('mcp.brave-search.env.BRAVE_API_KEY')).toBe('sk-brave-123')
    expect(await settings.getSecret('mcp.docs.header.Authorization')).toBe('Bearer tok-9')
    const onDisk = `${await readFile(join(dataDir, 'settings.json'), 'utf8')}${await readFile(join(dataDir, 'secrets.json'), 'utf8')}`
    expect(onDisk).not.toContain('sk-brave-123')
    expect(onDisk).not.toContain('tok-9')
    expect(JSON.stringify(settings.getPublic())).not.toContain('sk-brave-123')
    await host.close()
  })
})
