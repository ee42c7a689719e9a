import type { ToolContext } from './types'

export interface SessionStateHandle<T> {
  /** A name for messages; state is keyed by the handle itself, so a reloaded plugin starts fresh. */
  readonly key: string
  readonly create: (ctx: ToolContext) => T
  readonly dispose?: (value: T) => Promise<void> | void
  /** This session's value, created on first use. */
  get(ctx: ToolContext): T
}

/**
 * Declares per-session state for a stateful toolset (open workbooks, a browser page...).
 * Each `ToolSession` creates the value lazily and runs `dispose` when the session ends.
 */
export function sessionState<T>(
  key: string,
  create: (ctx: ToolContext) => T,
  dispose?: (value: T) => Promise<void> | void,
): SessionStateHandle<T> {
  const handle: SessionStateHandle<T> = {
    key,
    create,
    dispose,
    get: (ctx) => ctx.session.state(handle, ctx),
  }
  return handle
}
