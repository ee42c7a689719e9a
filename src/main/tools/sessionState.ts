import type { SessionStateHandle, ToolContext } from './types'

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
