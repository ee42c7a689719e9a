import { readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { createMcpHost, type McpHost } from '../../../src/main/mcp'
import { silentLogger } from '../../../src/main/platform'
import { createToolRegistry, createToolSession, invoke, type ToolSession } from '../../../src/main/tools'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import { fixturePath } from '../../support/fixtures'
import { tempDirs } from '../../support/tempDir'
import { itFast as it, itSoak } from '../../support/tier'

const require = createRequire(import.meta.url)
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
const filesystem = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js')
const fixture = fixturePath('mcp', 'fixtureServer.mjs')

const dirs = tempDirs('bureau-mcp-')
const registry = createToolRegistry()
let host: McpHost
let session: ToolSession
let workspace: Workspace
let shared = ''
let pidFile = ''

function value(result: Awaited<ReturnType<typeof invoke>>): string {
  if (!result.ok) expect.fail(`expected success, got ${result.stage}: ${result.error}`)
  return result.value as string
}

beforeAll(async () => {
  const dataDir = await dirs.make()
  shared = await dirs.make()
  pidFile = join(dataDir, 'wait.pid')
  await writeFile(join(shared, 'notes.txt'), 'quarterly numbers\n')
  const node = process.execPath
  await writeFile(
    join(dataDir, 'mcp.json'),
    JSON.stringify({
      mcpServers: {
        everything: { command: node, args: [everything, 'stdio'] },
        filesystem: { command: node, args: [filesystem, shared] },
        garbage: { command: node, args: [fixture, 'garbage'] },
        fixture: { command: node, args: [fixture, 'serve', pidFile] },
        missing: { command: join(dataDir, 'no-such-program') },
      },
    }),
  )
  host = createMcpHost({
    dataDir,
    settings: {
      // Five servers start at once: on a loaded two-core machine one can take several seconds to list its tools.
      // start() returns once every server has connected or failed, so this long timeout idles nothing; the server
      // that never answers its handshake waits it out in a host of its own below.
      mcp: () => ({ servers: {}, connectTimeoutSeconds: 45, callTimeoutSeconds: 3 }),
      getSecret: async () => undefined,
      listSecretNames: () => [],
    },
    registry,
    logger: silentLogger,
  })
  await host.start()
  workspace = createWorkspace({ root: await dirs.make() })
  session = createToolSession({ toolsets: registry, workspace })
}, 90_000)

afterAll(async () => {
  await session?.dispose()
  await host?.close()
  await workspace?.close()
  await dirs.cleanup()
})

const state = (name: string) => host.status().find((s) => s.name === name)

/** A host of its own with the server that never answers its handshake (and `others`), started and closed. */
async function startWithHang(
  connectTimeoutSeconds: number,
  others: Record<string, { command: string; args: string[] }> = {},
) {
  const dataDir = await dirs.make()
  const node = process.execPath
  await writeFile(
    join(dataDir, 'mcp.json'),
    JSON.stringify({ mcpServers: { hang: { command: node, args: [fixture, 'hang'] }, ...others } }),
  )
  const ownRegistry = createToolRegistry()
  const hangHost = createMcpHost({
    dataDir,
    settings: {
      mcp: () => ({ servers: {}, connectTimeoutSeconds, callTimeoutSeconds: 3 }),
      getSecret: async () => undefined,
      listSecretNames: () => [],
    },
    registry: ownRegistry,
    logger: silentLogger,
  })
  await hangHost.start()
  // Read before closing: closing the host takes its toolsets out of the registry.
  const status = hangHost.status()
  const hangRegistered = ownRegistry.get('hang') !== undefined
  const everythingSource = ownRegistry.sourceOf('everything')
  await hangHost.close()
  return { status, hangRegistered, everythingSource }
}

describe('MCP client against real servers', () => {
  it('connects each server on its own: the broken ones fail, the others list their tools', () => {
    expect(state('everything')).toMatchObject({
      state: 'connected',
      transport: 'stdio',
      toolset: 'everything',
    })
    expect(state('everything')?.toolCount).toBeGreaterThan(5)
    expect(state('filesystem')).toMatchObject({ state: 'connected', toolset: 'filesystem' })
    expect(state('missing')?.state).toBe('failed')
    expect(registry.sourceOf('everything')).toBe('mcp:everything')
  })

  it('fails a server that never answers its handshake once the connect timeout is over', async () => {
    const { status, hangRegistered } = await startWithHang(1)
    const hang = status.find((s) => s.name === 'hang')
    expect(hang?.state).toBe('failed')
    expect(hang?.lastError).toMatch(/timed out|timeout/i)
    expect(hangRegistered).toBe(false)
  })

  itSoak(
    'a server that never answers its handshake fails on its own while the others in its host connect',
    async () => {
      const { status, hangRegistered, everythingSource } = await startWithHang(30, {
        everything: { command: process.execPath, args: [everything, 'stdio'] },
        filesystem: { command: process.execPath, args: [filesystem, shared] },
      })
      const hang = status.find((s) => s.name === 'hang')
      expect(hang?.state).toBe('failed')
      expect(hang?.lastError).toMatch(/timed out|timeout/i)
      expect(hangRegistered).toBe(false)
      expect(status.find((s) => s.name === 'everything')?.state).toBe('connected')
      expect(status.find((s) => s.name === 'filesystem')?.state).toBe('connected')
      expect(everythingSource).toBe('mcp:everything')
    },
    90_000,
  )

  it('turns tool names and annotations into methods: readOnlyHint is read, the rest external', () => {
    const methods = registry.get('everything')?.methods ?? {}
    expect(methods.getSum?.risk).toBe('read')
    expect(methods.toggleSimulatedLogging?.risk).toBe('external')
    expect(Object.keys(registry.get('filesystem')?.methods ?? {})).toContain('readTextFile')
  })

  it('repairs and coerces arguments against the server schema before the call', async () => {
    const text = value(await invoke(session, 'everything_get_sum', "{a: '2', b: 3,}"))
    expect(text).toMatch(/^<<<UNTRUSTED_MCP_CONTENT from MCP server "everything", tool "get-sum"/)
    expect(text).toContain('5')
    const bad = await invoke(session, 'everything_get_sum', { a: 'two' })
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(bad.stage).toBe('arguments')
  })

  it('reads a file through server-filesystem, and its refusal comes back as a tool error', async () => {
    const text = value(
      await invoke(session, 'filesystem_read_text_file', { path: join(shared, 'notes.txt') }),
    )
    expect(text).toContain('quarterly numbers')
    const outside = await invoke(session, 'filesystem_read_text_file', { path: '/etc/passwd' })
    expect(outside.ok).toBe(false)
    if (!outside.ok) {
      expect(outside.stage).toBe('run')
      expect(outside.error).toMatch(/denied|outside|not allowed/i)
    }
  })

  it('saves images in the workspace and gives the model the path', async () => {
    const text = value(await invoke(session, 'everything_get_tiny_image', {}))
    const path = text.match(/image\/png saved to (\S+)\]/)?.[1]
    if (!path) expect.fail(text)
    expect(path).toMatch(/^\/mcp\/everything\/.+\.png$/)
    const bytes = await readFile(await workspace.resolve(path as string))
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG')
  })

  it('frames results so a server cannot close the frame or approve anything', async () => {
    const text = value(await invoke(session, 'fixture_inject', {}))
    expect(text.match(/<<<END_UNTRUSTED_MCP_CONTENT>>>/g)).toHaveLength(1)
    expect(text.trimEnd().endsWith('<<<END_UNTRUSTED_MCP_CONTENT>>>')).toBe(true)
  })

  it('keeps a server that prints garbage on stdout working and reports it', async () => {
    expect(state('garbage')?.state).toBe('connected')
    expect(value(await invoke(session, 'garbage_add', { a: 1, b: 2 }))).toContain('3')
    expect(state('garbage')?.lastError).toMatch(/not MCP/)
  })

  it('times out a call that never ends, and the server stays connected', async () => {
    const result = await invoke(session, 'fixture_wait', {})
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.code).toBe('TIMEOUT')
    expect(state('fixture')?.state).toBe('connected')
  })

  it('reports a server killed mid-call; the others keep working and reconnect brings it back', async () => {
    const call = invoke(session, 'fixture_wait', {})
    let pid = 0
    for (let i = 0; i < 100 && !pid; i++) {
      await new Promise((r) => setTimeout(r, 30))
      pid = Number(await readFile(pidFile, 'utf8').catch(() => '0'))
    }
    // Without a pid, process.kill(0) would kill the test runner's whole process group.
    if (!pid)
      expect.fail(`the fixture server never started the call (state: ${JSON.stringify(state('fixture'))})`)
    process.kill(pid, 'SIGKILL')
    const result = await call
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.code).toMatch(/UNAVAILABLE|TIMEOUT/)
    for (let i = 0; i < 100 && state('fixture')?.state !== 'failed'; i++)
      await new Promise((r) => setTimeout(r, 20))
    expect(state('fixture')?.state).toBe('failed')
    expect(registry.get('fixture')).toBeUndefined()
    expect(value(await invoke(session, 'everything_echo', { message: 'still here' }))).toContain('still here')
    expect((await host.reconnect('fixture')).state).toBe('connected')
    expect(value(await invoke(session, 'fixture_add', { a: 2, b: 2 }))).toContain('4')
  }, 20_000)
})
