import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { createMcpHost } from '../src/main/mcp'
import { silentLogger } from '../src/main/platform'
import { createToolRegistry, createToolSession, defineToolset, invoke, method } from '../src/main/tools'
import { fixturePath } from '../test/support/fixtures'
import { median } from './support'
import type { Bench } from './types'

const require = createRequire(import.meta.url)
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
const CALLS = 200

async function hostWith(servers: Record<string, { command: string; args: string[] }>) {
  const dataDir = await mkdtemp(join(tmpdir(), 'bureau-mcp-bench-'))
  await writeFile(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: servers }))
  const registry = createToolRegistry()
  const host = createMcpHost({
    dataDir,
    settings: {
      mcp: () => ({ servers: {}, connectTimeoutSeconds: 60, callTimeoutSeconds: 60 }),
      getSecret: async () => undefined,
      listSecretNames: () => [],
    },
    registry,
    logger: silentLogger,
  })
  return { host, registry, cleanup: () => rm(dataDir, { recursive: true, force: true }) }
}

async function timeCalls(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await run()
  const times: number[] = []
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  return median(times)
}

const noop = defineToolset({
  name: 'noop',
  summary: 'Does nothing (benchmark).',
  methods: {
    add: method({
      description: 'Adds two numbers.',
      input: z.object({ a: z.number(), b: z.number() }),
      output: z.string(),
      risk: 'read',
      run: ({ a, b }) => String(a + b),
    }),
  },
})

/** Start to "connected and tools listed" for server-everything; per-call cost of MCP vs a built-in method. */
const bench: Bench = async () => {
  const starts: number[] = []
  for (let i = 0; i < 3; i++) {
    const { host, cleanup } = await hostWith({
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
    })
    const started = performance.now()
    await host.start()
    starts.push(performance.now() - started)
    const tools = host.status()[0]?.toolCount ?? 0
    await host.close()
    await cleanup()
    if (tools === 0) throw new Error('server-everything listed no tools')
  }

  const { host, registry, cleanup } = await hostWith({
    fixture: { command: process.execPath, args: [fixturePath('mcp', 'fixtureServer.mjs'), 'serve'] },
  })
  await host.start()
  registry.add(noop)
  const session = createToolSession({ toolsets: registry })
  const mcpCall = await timeCalls(async () => {
    const result = await invoke(session, 'fixture_add', { a: 1, b: 2 })
    if (!result.ok) throw new Error(result.error)
  })
  const builtin = await timeCalls(async () => {
    const result = await invoke(session, 'noop_add', { a: 1, b: 2 })
    if (!result.ok) throw new Error(result.error)
  })
  await session.dispose()
  await host.close()
  await cleanup()
  return [
    { name: 'server-everything: start to tools listed (median of 3)', value: median(starts), unit: 'ms' },
    { name: `MCP call over stdio (median of ${CALLS})`, value: mcpCall, unit: 'ms' },
    { name: `built-in no-op method (median of ${CALLS})`, value: builtin, unit: 'ms' },
    { name: 'MCP client overhead per call', value: mcpCall - builtin, unit: 'ms' },
  ]
}

export default bench
