import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { AppError } from '../../shared/errors'
import type { AppNotice, McpServerStatus, McpToolInfo } from '../../shared/ipc'
import type { McpSettings } from '../../shared/settings'
import type { Logger } from '../platform'
import type { ToolContext, ToolRegistry } from '../tools'
import type { McpServerConfig } from './config'
import { connectServer, type McpConnection } from './connect'
import { loadServers, type McpSettingsPort } from './loadServers'
import { mcpToolset, riskOf } from './mcpToolset'
import { uncheckedPatterns } from './schemaPatterns'
import { methodKeysOf, toolsetNameOf } from './toolNames'

export interface McpHostOptions {
  dataDir: string
  settings: McpSettingsPort
  registry: ToolRegistry
  logger: Logger
  notify?: (notice: AppNotice) => void
  /** A server's state changed (Settings shows it live). */
  onChange?: (status: McpServerStatus[]) => void
}

/** Every configured MCP server, each connected on its own: one that fails never stops the others. */
export interface McpHost {
  /** Connects every enabled server (again: disconnects first) and waits until each connected or failed. */
  start(): Promise<void>
  /** Reads the configuration again and (re)connects only the servers that were added or changed. */
  refresh(): Promise<void>
  status(): McpServerStatus[]
  /** The tools of a connected server, as the Settings list shows them. */
  tools(name: string): McpToolInfo[]
  reconnect(name: string): Promise<McpServerStatus>
  close(): Promise<void>
}

interface Entry {
  config: McpServerConfig
  status: McpServerStatus
  connection?: McpConnection
  /** Bumped on every (re)connect, so events of an old connection are ignored. */
  generation: number
}

/** MCP errors the SDK raises (`McpError` has a numeric code; -32001 timeout, -32000 connection closed). */
function callError(server: string, error: unknown, timeoutMs: number): AppError {
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  const data = (error as { data?: { maxTotalTimeout?: unknown } }).data
  if (code === -32001 && typeof data?.maxTotalTimeout === 'number')
    return new AppError(
      'TIMEOUT',
      `the MCP server "${server}" kept reporting progress but did not finish within the overall limit of ${data.maxTotalTimeout / 1000} s (mcp.callDeadlineSeconds)`,
    )
  if (code === -32001)
    return new AppError('TIMEOUT', `the MCP server "${server}" did not answer within ${timeoutMs / 1000} s`)
  if (code === -32000)
    return new AppError('UNAVAILABLE', `the MCP server "${server}" closed the connection during the call`)
  return new AppError('HANDLER_FAILED', `MCP server "${server}": ${message}`)
}

/** The overall limit of one call: progress resets the per-call timeout, never this. */
function callDeadlineMs(settings: McpSettings): number {
  return (settings.callDeadlineSeconds ?? Math.max(600, settings.callTimeoutSeconds * 10)) * 1000
}

export function createMcpHost(options: McpHostOptions): McpHost {
  const entries = new Map<string, Entry>()
  const log = options.logger
  const changed = () => options.onChange?.([...entries.values()].map((entry) => entry.status))
  const setStatus = (entry: Entry, status: McpServerStatus) => {
    entry.status = status
    changed()
  }

  const unregister = (entry: Entry) => {
    const toolset = entry.status.toolset
    if (toolset && options.registry.sourceOf(toolset) === `mcp:${entry.config.name}`)
      options.registry.remove(toolset)
  }

  const fail = (entry: Entry, error: string) => {
    unregister(entry)
    entry.connection = undefined
    setStatus(entry, { ...entry.status, state: 'failed', toolCount: 0, lastError: error })
    log.warn('MCP server failed', { server: entry.config.name, error })
    options.notify?.({
      level: 'warning',
      id: `mcp:${entry.config.name}`,
      message: `MCP server "${entry.config.name}": ${error}`,
    })
  }

  const caller = (entry: Entry) => ({
    async callTool(tool: string, args: Record<string, unknown>, ctx: ToolContext) {
      const connection = entry.connection
      if (!connection)
        throw new AppError('UNAVAILABLE', `the MCP server "${entry.config.name}" is not connected`)
      const settings = options.settings.mcp()
      const timeoutMs = settings.callTimeoutSeconds * 1000
      // A signal per call: the SDK listens on it, and the session's own signal lives for many calls.
      const call = new AbortController()
      const abort = () => call.abort()
      ctx.signal.addEventListener('abort', abort, { once: true })
      try {
        return (await connection.client.callTool({ name: tool, arguments: args }, undefined, {
          signal: call.signal,
          timeout: timeoutMs,
          resetTimeoutOnProgress: true,
          maxTotalTimeout: callDeadlineMs(settings),
          onprogress: (p) =>
            ctx.progress({
              ...(p.total ? { fraction: p.progress / p.total } : {}),
              ...(p.message ? { message: p.message } : {}),
            }),
        })) as CallToolResult
      } catch (error) {
        throw callError(entry.config.name, error, timeoutMs)
      } finally {
        ctx.signal.removeEventListener('abort', abort)
      }
    },
  })

  const connect = async (entry: Entry): Promise<void> => {
    const generation = ++entry.generation
    unregister(entry)
    await entry.connection?.close().catch(() => undefined)
    entry.connection = undefined
    const { config } = entry
    if (config.disabled) {
      setStatus(entry, { name: config.name, origin: config.origin, state: 'disabled', toolCount: 0 })
      return
    }
    setStatus(entry, { name: config.name, origin: config.origin, state: 'connecting', toolCount: 0 })
    const current = () => entry.generation === generation
    let garbage = 0
    try {
      const connection = await connectServer(config, {
        timeoutMs: options.settings.mcp().connectTimeoutSeconds * 1000,
        onClose: () => {
          if (!current() || !entry.connection) return
          const stderr = entry.connection.stderrTail().split('\n').slice(-2).join(' | ')
          fail(entry, `the server stopped${stderr ? ` (stderr: ${stderr})` : ''}; reconnect it in Settings`)
        },
        onError: (error) => {
          if (!current()) return
          garbage++
          setStatus(entry, {
            ...entry.status,
            lastError: `sent something that is not MCP (${garbage}×): ${error.message.slice(0, 200)}`,
          })
        },
      })
      if (!current()) {
        await connection.close().catch(() => undefined)
        return
      }
      entry.connection = connection
      const unchecked = connection.tools.flatMap((tool) => uncheckedPatterns(tool.inputSchema))
      const leftOut = [
        ...connection.leftOut,
        ...(unchecked.length > 0
          ? [
              `${unchecked.length} pattern${unchecked.length === 1 ? ' is' : 's are'} not checked by Bureau (RE2 cannot read them; the server still validates: ${unchecked
                .slice(0, 2)
                .map((p) => p.slice(0, 60))
                .join(', ')})`,
            ]
          : []),
      ]
      if (leftOut.length > 0) {
        log.warn('MCP server over limits', { server: config.name, leftOut })
        options.notify?.({
          level: 'warning',
          id: `mcp:${config.name}:limits`,
          message: `MCP server "${config.name}": ${leftOut.join('; ')}.`,
        })
      }
      const toolset = toolsetNameOf(config.name)
      const status: McpServerStatus = {
        name: config.name,
        origin: config.origin,
        state: 'connected',
        transport: connection.transport,
        toolset,
        toolCount: connection.tools.length,
        ...(entry.status.lastError ? { lastError: entry.status.lastError } : {}),
      }
      if (connection.tools.length === 0) return setStatus(entry, status)
      entry.status = status
      const added = options.registry.add(
        mcpToolset(toolset, config.name, connection.tools, caller(entry)),
        `mcp:${config.name}`,
      )
      if (!added.added) fail(entry, `its tools were not added: ${added.reason}`)
      else changed()
    } catch (error) {
      if (current()) fail(entry, error instanceof Error ? error.message : String(error))
    }
  }

  /** Applies the configuration; `all` reconnects every server, else only new or changed ones. */
  const sync = async (all: boolean) => {
    const { servers, problems } = await loadServers(options.dataDir, options.settings)
    for (const problem of problems) options.notify?.({ level: 'warning', id: 'mcp:file', message: problem })
    const gone = [...entries.keys()].filter((name) => !servers.some((s) => s.name === name))
    for (const name of gone) {
      const entry = entries.get(name) as Entry
      entry.generation++
      unregister(entry)
      await entry.connection?.close().catch(() => undefined)
      entries.delete(name)
    }
    const stale: Entry[] = []
    for (const config of servers) {
      const entry = entries.get(config.name)
      if (entry) {
        if (all || JSON.stringify(entry.config) !== JSON.stringify(config)) stale.push(entry)
        entry.config = config
        continue
      }
      const added: Entry = {
        config,
        generation: 0,
        status: { name: config.name, origin: config.origin, state: 'connecting', toolCount: 0 },
      }
      entries.set(config.name, added)
      stale.push(added)
    }
    if (gone.length > 0) changed()
    await Promise.all(stale.map(connect))
  }

  return {
    start: () => sync(true),
    refresh: () => sync(false),
    tools(name) {
      const entry = entries.get(name)
      const toolset = entry?.status.toolset
      if (!entry?.connection || !toolset) return []
      const tools = entry.connection.tools
      const byName = new Map(tools.map((t) => [t.name, t]))
      return [
        ...methodKeysOf(
          toolset,
          tools.map((t) => t.name),
        ),
      ].map(([method, toolName]) => {
        const tool = byName.get(toolName) as (typeof tools)[number]
        return {
          name: toolName,
          method,
          ruleKey: `${toolset}.${method}`,
          description: (tool.description ?? '').slice(0, 300),
          risk: riskOf(tool),
        }
      })
    },
    status: () => [...entries.values()].map((entry) => entry.status),
    async reconnect(name) {
      const entry = entries.get(name)
      if (!entry) throw new AppError('NOT_FOUND', `No MCP server is called "${name}".`)
      await connect(entry)
      return entry.status
    },
    async close() {
      await Promise.all(
        [...entries.values()].map(async (entry) => {
          entry.generation++
          unregister(entry)
          await entry.connection?.close().catch(() => undefined)
          entry.connection = undefined
        }),
      )
    },
  }
}
