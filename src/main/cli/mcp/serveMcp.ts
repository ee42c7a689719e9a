import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { APP_NAME, APP_VERSION } from '../../appVersion'
import { createLogger, defaultDataDir } from '../../platform'
import { createToolSession, type Toolset } from '../../tools'
import { openCliToolEnvironment } from '../cliToolEnvironment'
import type { McpCliOptions } from '../commandOptions'
import { UsageError } from '../program'
import { LineServerTransport } from './lineTransport'
import { callBureauTool, mcpToolList } from './mcpTools'

function pickToolsets(all: readonly Toolset[], names: string | undefined): Toolset[] {
  if (!names) return [...all]
  const wanted = names
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)
  const unknown = wanted.filter((n) => !all.some((t) => t.name === n))
  if (unknown.length > 0)
    throw new UsageError(
      `Unknown toolset ${unknown.join(', ')} for --toolsets. Available: ${all.map((t) => t.name).join(', ')}.`,
    )
  return all.filter((t) => wanted.includes(t.name))
}

/**
 * `bureau mcp`: the built-in and plugin toolsets as an MCP server on stdin/stdout. stdout carries
 * only protocol messages; logs and notices go to stderr. Runs until the client closes stdin.
 */
export async function serveMcp(options: McpCliOptions): Promise<void> {
  // Logs go to stderr: stdout carries only protocol messages.
  const logger = createLogger({ level: 'warn' })
  const environment = await openCliToolEnvironment({
    dataDir: options.dataDir ?? defaultDataDir(process.env),
    ...(options.workspace ? { workspace: options.workspace } : {}),
    browser: options,
    logger,
    notify: (notice) => process.stderr.write(`${notice.level}: ${notice.message}\n`),
  })
  const toolsets = pickToolsets(environment.registry.list(), options.toolsets)
  const session = createToolSession({ toolsets, workspace: environment.workspace, logger })
  const server = new Server(
    { name: APP_NAME.toLowerCase(), version: APP_VERSION },
    { capabilities: { tools: {} } },
  )
  const tools = mcpToolList(toolsets)
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }))
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callBureauTool(session, request.params.name, request.params.arguments, extra.signal),
  )
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve()
  })
  // Answers oversized lines, invalid ids and requests before initialize with errors, and closes when stdin ends.
  await server.connect(new LineServerTransport())
  await closed
  await session.dispose()
  await environment.close()
}
