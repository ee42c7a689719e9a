import type { FlushFailure, SessionStateHandle, ToolContext } from './types'

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
