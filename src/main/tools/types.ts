import type { ErrorCode } from '../../shared/errors'
import type { Logger } from '../logging'
import type { ToolSession } from './toolSession'
import type { UrlGuard } from './urlGuard'
import type { Workspace } from './workspaceType'

/** How much a method can change: used for approvals (`write` changes files, `external` reaches the network). */
export type Risk = 'read' | 'write' | 'external'

export interface ProgressUpdate {
  message?: string
  /** 0..1 when the method knows how far it is. */
  fraction?: number
}

/** What a method's `run` receives besides its validated arguments. */
export interface ToolContext {
  /** The sandboxed workspace; reading it when the session has none gives a clear tool error. */
  readonly workspace: Workspace
  readonly signal: AbortSignal
  readonly log: Logger
  readonly progress: (update: ProgressUpdate) => void
  /** HTTP toolsets check every URL here instead of calling fetch on raw input. */
  readonly urlGuard: UrlGuard
  readonly session: ToolSession
}

export interface ToolCall {
  toolset: string
  /** The method key as declared (camelCase). */
  method: string
  /** The API-mode name, e.g. `spreadsheet_set_cell_value`. */
  name: string
  /** The validated arguments (after repair, coercion and defaults). */
  args?: Record<string, unknown>
}

/**
 * Where a call failed: `usage`, `resolve` and `arguments` are the caller's mistakes (exit 2 in
 * `bureau tool`), `run` and `output` happened in the method, `cancelled` by the abort signal.
 */
export type ToolFailureStage = 'usage' | 'resolve' | 'arguments' | 'run' | 'output' | 'cancelled' | 'session'

export interface ToolSuccess<T = unknown> {
  ok: true
  value: T
  durationMs: number
  call?: ToolCall
  /** Set when the value is help text from the CLI-mode terminal rather than a method result. */
  help?: true
}

export interface ToolFailure {
  ok: false
  /** Short text a model can act on: no stack, no host path. */
  error: string
  code: ErrorCode
  stage: ToolFailureStage
  durationMs: number
  call?: ToolCall
}

export type ToolResult<T = unknown> = ToolSuccess<T> | ToolFailure

export function isUsageFailure(result: ToolResult): boolean {
  return (
    !result.ok && (result.stage === 'usage' || result.stage === 'resolve' || result.stage === 'arguments')
  )
}
