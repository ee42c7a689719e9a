import { randomUUID } from 'node:crypto'
import type { Logger } from '../logging'
import { silentLogger } from '../logging'
import type { Workspace } from '../workspace'
import { createToolRegistry } from './registry'
import type {
  FlushFailure,
  SessionStateHandle,
  ToolContext,
  ToolRegistry,
  ToolSession,
  Toolset,
} from './types'
import { createUrlGuard, type UrlGuard } from './urlGuard'

export interface ToolSessionOptions {
  /** A live registry (plugins hot-added later show up) or a fixed list. */
  toolsets: ToolRegistry | readonly Toolset[]
  /** The workspace, or a factory called on first use (so a session that never touches files creates none). */
  workspace?: Workspace | (() => Workspace)
  urlGuard?: UrlGuard
  logger?: Logger
  id?: string
}

function isRegistry(value: ToolSessionOptions['toolsets']): value is ToolRegistry {
  return !Array.isArray(value) && typeof (value as ToolRegistry).list === 'function'
}

export function createToolSession(options: ToolSessionOptions): ToolSession {
  const registry = isRegistry(options.toolsets) ? options.toolsets : createToolRegistry(options.toolsets)
  const logger = options.logger ?? silentLogger
  const controller = new AbortController()
  const states = new Map<SessionStateHandle<unknown>, unknown>()
  let disposed = false
  let workspace = typeof options.workspace === 'function' ? undefined : options.workspace
  const createWorkspace = typeof options.workspace === 'function' ? options.workspace : undefined

  return {
    id: options.id ?? randomUUID(),
    registry,
    get workspace() {
      if (!workspace && createWorkspace) workspace = createWorkspace()
      return workspace
    },
    urlGuard: options.urlGuard ?? createUrlGuard(),
    logger,
    signal: controller.signal,
    get disposed() {
      return disposed
    },
    state<T>(handle: SessionStateHandle<T>, ctx: ToolContext): T {
      const key = handle as SessionStateHandle<unknown>
      if (states.has(key)) return states.get(key) as T
      const value = handle.create(ctx)
      states.set(key, value)
      return value
    },
    async flush() {
      const failures: FlushFailure[] = []
      for (const [handle, value] of states) {
        if (!handle.flush) continue
        try {
          failures.push(...(await handle.flush(value)))
        } catch (error) {
          failures.push({ error: `${handle.key}: ${error instanceof Error ? error.message : String(error)}` })
        }
      }
      return failures
    },
    async dispose() {
      if (disposed) return { errors: [] }
      disposed = true
      controller.abort()
      const errors: string[] = []
      for (const [handle, value] of [...states.entries()].reverse()) {
        try {
          await handle.dispose?.(value)
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error)
          logger.error('session state dispose failed', { state: handle.key, error: message })
          errors.push(`${handle.key}: ${message}`)
        }
      }
      states.clear()
      return { errors }
    },
  }
}
