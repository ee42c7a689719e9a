import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { createMcpHost, MCP_FILE } from '../../mcp'
import { silentLogger } from '../../platform'
import { createToolRegistry, type Toolset } from '../../tools'

/** The MCP servers of one attempt: started from the task's fixture scripts, as the user's would be. */
export interface TaskMcp {
  toolsets: Toolset[]
  /** Where the servers append what their non-read-only tools did (one JSON line per call). */
  journal: string
  close(): Promise<void>
}

const TIMEOUT_SECONDS = 30

/** `mcp/inventory.mjs` -> `inventory`: the server's name (and toolset). */
export const serverNameOf = (script: string) => basename(script).replace(/\.m?js$/, '')

/**
 * Starts each script (a stdio MCP server in eval/fixtures) through Bureau's MCP client, configured in
 * an `mcp.json` of the attempt's own, so the eval runs the real client path and never the user's servers.
 */
export async function startTaskMcp(
  tempRoot: string,
  fixturesDir: string,
  scripts: readonly string[],
): Promise<TaskMcp> {
  const dir = await mkdtemp(join(tempRoot, 'mcp-'))
  const journal = join(dir, 'journal.jsonl')
  await writeFile(journal, '')
  const mcpServers = Object.fromEntries(
    scripts.map((script) => [
      serverNameOf(script),
      // The running Node (or Electron as Node): the servers need nothing the user installed.
      {
        command: process.execPath,
        args: [join(fixturesDir, script), journal],
        env: { ELECTRON_RUN_AS_NODE: '1' },
      },
    ]),
  )
  await writeFile(join(dir, MCP_FILE), JSON.stringify({ mcpServers }))
  const registry = createToolRegistry()
  const host = createMcpHost({
    dataDir: dir,
    settings: {
      mcp: () => ({
        servers: {},
        connectTimeoutSeconds: TIMEOUT_SECONDS,
        callTimeoutSeconds: TIMEOUT_SECONDS,
      }),
      getSecret: async () => undefined,
      listSecretNames: () => [],
    },
    registry,
    logger: silentLogger,
  })
  const close = async () => {
    await host.close()
    await rm(dir, { recursive: true, force: true })
  }
  await host.start()
  const failed = host.status().find((s) => s.state !== 'connected')
  if (failed) {
    await close()
    throw new Error(
      `the task's MCP server "${failed.name}" did not start: ${failed.lastError ?? failed.state}`,
    )
  }
  return { toolsets: [...registry.list()], journal, close }
}
