import type { ToolContext } from './types'

/** A piece of state that could not be written when a session was flushed, e.g. a workbook save. */
export interface FlushFailure {
  /** The agent path that was not written, when the failure concerns one. */
  path?: string
  error: string
}

export interface SessionStateHandle<T> {
  /** A name for messages; state is keyed by the handle itself, so a reloaded plugin starts fresh. */
  readonly key: string
  readonly create: (ctx: ToolContext) => T
  readonly dispose?: (value: T) => Promise<void> | void
  /** Writes pending changes now (before the agent's answer is accepted) and lists what failed. */
  readonly flush?: (value: T) => Promise<readonly FlushFailure[]>
  /** This session's value, created on first use. */
  get(ctx: ToolContext): T
}

/**
 * Declares per-session state for a stateful toolset (open workbooks, a browser page...).
 * Each `ToolSession` creates the value lazily and runs `dispose` when the session ends; `flush`, when
 * given, writes pending changes on request (the agent flushes before it accepts a final answer).
 */
export function sessionState<T>(
  key: string,
  create: (ctx: ToolContext) => T,
  dispose?: (value: T) => Promise<void> | void,
  flush?: (value: T) => Promise<readonly FlushFailure[]>,
): SessionStateHandle<T> {
  const handle: SessionStateHandle<T> = {
    key,
    create,
    dispose,
    flush,
    get: (ctx) => ctx.session.state(handle, ctx),
  }
  return handle
}
