import { setMaxListeners } from 'node:events'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { APP_VERSION } from '../appVersion'
import type { McpServerConfig } from './config'
import { keepWithinLimits, MCP_LIMITS } from './limits'

/** A connected server: its client, the tools it listed, and what it said on the way. */
export interface McpConnection {
  readonly client: Client
  readonly tools: readonly Tool[]
  /** What was left out of the server's tools to stay within `MCP_LIMITS`, one line per reason. */
  readonly leftOut: readonly string[]
  /** `stdio`, `streamable-http` or `sse`: what actually connected. */
  readonly transport: 'stdio' | 'streamable-http' | 'sse'
  /** The last lines the server wrote on stderr (stdio), for error messages. */
  stderrTail(): string
  close(): Promise<void>
}

export interface ConnectOptions {
  timeoutMs: number
  signal?: AbortSignal
  /** The connection was lost after it was made (process exited, stream closed). */
  onClose: () => void
  /** Something the server sent could not be read (garbage on stdout, a broken message). */
  onError: (error: Error) => void
}

const STDERR_TAIL = 2_000

async function stdioTransport(config: McpServerConfig, tail: { text: string }): Promise<Transport> {
  const { StdioClientTransport, getDefaultEnvironment } = await import(
    '@modelcontextprotocol/sdk/client/stdio.js'
  )
  const transport = new StdioClientTransport({
    command: config.command ?? '',
    args: config.args,
    env: { ...getDefaultEnvironment(), ...config.env },
    ...(config.cwd ? { cwd: config.cwd } : {}),
    stderr: 'pipe',
  })
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail.text = (tail.text + chunk.toString('utf8')).slice(-STDERR_TAIL)
  })
  return transport
}

async function httpTransport(config: McpServerConfig, kind: 'streamable-http' | 'sse'): Promise<Transport> {
  const url = new URL(config.url ?? '')
  const requestInit = { headers: config.headers }
  if (kind === 'sse') {
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js')
    return new SSEClientTransport(url, { requestInit })
  }
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
  return new StreamableHTTPClientTransport(url, { requestInit })
}

/**
 * Every page of `tools/list`, all within one deadline: at most `listPages` pages, and a cursor the
 * server already gave ends the listing with an error instead of going round forever.
 */
async function listAllTools(client: Client, timeoutMs: number, signal?: AbortSignal): Promise<Tool[]> {
  const deadline = AbortSignal.timeout(timeoutMs)
  const both = signal ? AbortSignal.any([signal, deadline]) : deadline
  // The SDK adds a listener per page to the signal it is given and keeps it until the signal ends.
  setMaxListeners(MCP_LIMITS.listPages + 10, both)
  const tools: Tool[] = []
  const seen = new Set<string>()
  let cursor: string | undefined
  for (let page = 0; ; page++) {
    if (page >= MCP_LIMITS.listPages)
      throw new Error(
        `the server's tool list did not end after ${MCP_LIMITS.listPages} pages (${tools.length} tools so far)`,
      )
    let result: Awaited<ReturnType<Client['listTools']>>
    try {
      result = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs, signal: both })
    } catch (error) {
      if (deadline.aborted && !signal?.aborted)
        throw new Error(
          `the server did not finish listing its tools within ${timeoutMs / 1000} s (${page} pages, ${tools.length} tools)`,
          { cause: error },
        )
      throw error
    }
    tools.push(...result.tools)
    cursor = result.nextCursor
    if (!cursor) return tools
    if (seen.has(cursor))
      throw new Error(
        `the server's tool list goes round in a loop (cursor "${cursor.slice(0, 40)}" came twice)`,
      )
    seen.add(cursor)
  }
}

async function attempt(
  config: McpServerConfig,
  kind: McpConnection['transport'],
  options: ConnectOptions,
): Promise<McpConnection> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
  const tail = { text: '' }
  const transport = kind === 'stdio' ? await stdioTransport(config, tail) : await httpTransport(config, kind)
  const client = new Client({ name: 'bureau', version: APP_VERSION }, { capabilities: {} })
  let ready = false
  client.onerror = (error) => options.onError(error)
  client.onclose = () => {
    if (ready) options.onClose()
  }
  const request = { timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) }
  try {
    await client.connect(transport, request)
    const { tools, leftOut } = keepWithinLimits(await listAllTools(client, options.timeoutMs, options.signal))
    ready = true
    return {
      client,
      tools,
      leftOut,
      transport: kind,
      stderrTail: () => tail.text.trim(),
      close: () => client.close(),
    }
  } catch (error) {
    await client.close().catch(() => undefined)
    const stderr = tail.text.trim().split('\n').slice(-3).join(' | ')
    const message = error instanceof Error ? error.message : String(error)
    throw new Error(stderr ? `${message} (stderr: ${stderr})` : message, { cause: error })
  }
}

/** Connects over stdio, or HTTP (streamable HTTP, then SSE for older servers), and lists the tools. */
export async function connectServer(
  config: McpServerConfig,
  options: ConnectOptions,
): Promise<McpConnection> {
  if (config.command) return attempt(config, 'stdio', options)
  if (config.transport !== 'auto') return attempt(config, config.transport, options)
  try {
    return await attempt(config, 'streamable-http', options)
  } catch (first) {
    if (options.signal?.aborted) throw first
    try {
      return await attempt(config, 'sse', options)
    } catch {
      throw first
    }
  }
}
