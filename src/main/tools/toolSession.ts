import { randomUUID } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import type { Logger } from '../platform'
import { silentLogger } from '../platform'
import { createUrlGuard, type UrlGuard } from './net/urlGuard'
import { registryOf, type ToolsetSource } from './registry'
import type { FlushFailure, SessionStateHandle, ToolContext, ToolOrigin, ToolSession } from './types'
import { lazyWorkspace, type WorkspaceSource } from './workspaceSource'

export interface ToolSessionOptions {
  /** A live registry (plugins hot-added later show up) or a fixed list. */
  toolsets: ToolsetSource
  /** The workspace, or a factory called on first use (so a session that never touches files creates none). */
  workspace?: WorkspaceSource
  urlGuard?: UrlGuard
  logger?: Logger
  id?: string
  origin?: ToolOrigin | undefined
}

export function createToolSession(options: ToolSessionOptions): ToolSession {
  const registry = registryOf(options.toolsets)
  const logger = options.logger ?? silentLogger
  const controller = new AbortController()
  // Every running call listens on the session's signal until it ends (invokeMethod.ts removes its own
  // listener; a method may add one), and a session may run many calls at once: no count is a leak here.
  setMaxListeners(0, controller.signal)
  const states = new Map<SessionStateHandle<unknown>, unknown>()
  let disposed = false
  const workspace = lazyWorkspace(options.workspace)

  return {
    id: options.id ?? randomUUID(),
    origin: options.origin,
    registry,
    get workspace() {
      return workspace()
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
