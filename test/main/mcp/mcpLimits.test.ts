import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMcpHost, type McpHost } from '../../../src/main/mcp'
import { MCP_LIMITS } from '../../../src/main/mcp/limits'
import { silentLogger } from '../../../src/main/platform'
import { createToolRegistry, createToolSession, invoke, type ToolSession } from '../../../src/main/tools'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import type { AppNotice } from '../../../src/shared/ipc'
import { fixturePath } from '../../support/fixtures'
import { tempDirs } from '../../support/tempDir'

// Each hostile server must end in a clear error or a clear notice within the stated budget.
const hostile = fixturePath('mcp', 'hostileServer.mjs')
const dirs = tempDirs('bureau-mcp-limits-')
const registry = createToolRegistry()
const notices: AppNotice[] = []
let host: McpHost
let session: ToolSession
let workspace: Workspace
let workspaceRoot = ''
let startMs = 0

beforeAll(async () => {
  const dataDir = await dirs.make()
  const server = (mode: string) => ({ command: process.execPath, args: [hostile, mode] })
  const servers = JSON.stringify({
    endless: server('endless-pages'),
    looping: server('same-cursor'),
    many: server('many-tools'),
    hostile: server('tools'),
  })
  // Written by hand: an object literal cannot hold an own "__proto__" key.
  await writeFile(
    join(dataDir, 'mcp.json'),
    `{"mcpServers": {"__proto__": {"command": "node"}, "constructor": {"command": "node"}, ${servers.slice(1)}}`,
  )
  host = createMcpHost({
    dataDir,
    settings: {
      mcp: () => ({ servers: {}, connectTimeoutSeconds: 45, callTimeoutSeconds: 10, callDeadlineSeconds: 4 }),
      getSecret: async () => undefined,
      listSecretNames: () => [],
    },
    registry,
    logger: silentLogger,
    notify: (notice) => notices.push(notice),
  })
  const started = performance.now()
  await host.start()
  startMs = performance.now() - started
  workspaceRoot = await dirs.make()
  workspace = createWorkspace({ root: workspaceRoot })
  session = createToolSession({ toolsets: registry, workspace })
}, 120_000)

afterAll(async () => {
  await session?.dispose()
  await host?.close()
  await workspace?.close()
  await dirs.cleanup()
})

const state = (name: string) => host.status().find((s) => s.name === name)

describe('MCP client limits against a hostile server', () => {
  it('starts within the 120 s budget although two servers list tools forever', () => {
    expect(startMs).toBeLessThan(120_000)
    expect(state('hostile')?.state).toBe('connected')
  })

  it('stops a tools/list that pages forever after the page limit, with a clear error', () => {
    expect(state('endless')?.state).toBe('failed')
    // The page limit, or on a very busy machine the connect deadline: either way a bounded, named failure.
    expect(state('endless')?.lastError).toMatch(
      new RegExp(
        `did not end after ${MCP_LIMITS.listPages} pages|did not finish listing its tools within 45 s`,
      ),
    )
    expect(registry.get('endless')).toBeUndefined()
  })

  it('stops a tools/list whose cursor comes back, with a clear error', () => {
    expect(state('looping')?.state).toBe('failed')
    expect(state('looping')?.lastError).toMatch(/goes round in a loop \(cursor "again" came twice\)/)
  })

  it('keeps at most the tool limit of a server and tells the user what was left out', () => {
    expect(state('many')?.state).toBe('connected')
    expect(state('many')?.toolCount).toBe(MCP_LIMITS.toolsPerServer)
    expect(Object.keys(registry.get('many')?.methods ?? {})).toHaveLength(MCP_LIMITS.toolsPerServer)
    expect(registry.get('many')?.methods.bigEnum).toBeUndefined()
    const notice = notices.find((n) => n.id === 'mcp:many:limits')
    expect(notice?.level).toBe('warning')
    expect(notice?.message).toContain('left out 4,872 tools past the first 128')
    expect(notice?.message).toContain('"big_enum": its schema has an enum of 100,000 values (at most 256)')
    expect(notice?.message).toContain('"deep": its schema nests deeper than')
  })

  it('ends a call that reports progress forever at the overall deadline', async () => {
    const started = performance.now()
    const result = await invoke(session, 'hostile_progress', {})
    expect(performance.now() - started).toBeLessThan(15_000)
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.code).toBe('TIMEOUT')
      expect(result.error).toContain('did not finish within the overall limit of 4 s')
    }
    expect(state('hostile')?.state).toBe('connected')
  }, 20_000)

  it('reads at most the part limit of a result and saves at most the file limit, saying what was left out', async () => {
    const result = await invoke(session, 'hostile_images', {})
    if (!result.ok) expect.fail(`${result.stage}: ${result.error}`)
    const text = result.value as string
    expect(text).toContain('19,800 more content parts were left out (at most 200 are read per result)')
    expect(text).toContain('180 files were not saved (at most 20 per result)')
    expect(await readdir(join(workspaceRoot, 'mcp', 'hostile'))).toHaveLength(MCP_LIMITS.savedPerResult)
  }, 20_000)

  it('checks a backtracking pattern in linear time: a clear refusal, and a match still passes', async () => {
    const started = performance.now()
    const refused = await invoke(session, 'hostile_match', { text: `${'a'.repeat(41)}!` })
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(refused.ok).toBe(false)
    if (!refused.ok) {
      expect(refused.stage).toBe('arguments')
      expect(refused.error).toContain('does not match the pattern (a+)+$')
    }
    const matched = await invoke(session, 'hostile_match', { text: 'xaaa' })
    if (!matched.ok) expect.fail(`${matched.stage}: ${matched.error}`)
    expect(matched.value).toContain('matched xaaa')
  })

  it('refuses servers named __proto__ or constructor with a notice, and uses the others', () => {
    const file = notices.filter((n) => n.id === 'mcp:file').map((n) => n.message)
    expect(file).toContain(
      'mcp.json: the server named "__proto__" was not used: that name is reserved; rename it',
    )
    expect(file).toContain(
      'mcp.json: the server named "constructor" was not used: that name is reserved; rename it',
    )
    expect(host.status().map((s) => s.name)).toEqual(['endless', 'looping', 'many', 'hostile'])
  })
})
