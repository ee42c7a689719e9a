import type { z } from 'zod'
import { AppError, type ErrorPayload, toIssues } from '../../shared/errors'
import type { RouteMap } from '../../shared/ipc'

export { toIssues }

/** What every handler sees: who asked, and a signal that fires when the caller goes away. */
export interface HandlerContext {
  senderId: string
  signal: AbortSignal
}

export type Handler<I, O> = (input: I, ctx: HandlerContext) => Promise<O> | O

export type HandlersFor<R extends RouteMap> = {
  [K in keyof R]: Handler<z.output<R[K]['input']>, z.input<R[K]['output']>>
}

/** Exactly the contract's handlers: an extra key is a compile error, as is a missing one. */
export type ExactHandlers<R extends RouteMap, H> = H & Record<Exclude<keyof H, keyof R>, never>

export type DispatchResult = { ok: true; value: unknown } | { ok: false; error: ErrorPayload }

export interface IpcRouter {
  has(route: string): boolean
  dispatch(route: string, rawInput: unknown, ctx: HandlerContext): Promise<DispatchResult>
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  )
}

/** A route without input accepts nothing, `{}` or null (an empty HTTP body). */
function normaliseInput(schema: z.ZodType, raw: unknown): unknown {
  if (
    (raw === null || isEmptyObject(raw)) &&
    schema.safeParse(undefined).success &&
    !schema.safeParse(raw).success
  ) {
    return undefined
  }
  return raw
}

export function errorPayloadOf(error: unknown, route: string): ErrorPayload {
  if (error instanceof AppError) return error.toPayload()
  if (error instanceof Error && error.name === 'AbortError')
    return { code: 'CANCELLED', message: 'Cancelled.' }
  const detail = error instanceof Error ? error.message.split('\n')[0] : String(error)
  return { code: 'HANDLER_FAILED', message: `${route} failed: ${detail}` }
}

/**
 * One router for both transports: validates the input, runs the handler, validates the output.
 * Never throws: every failure becomes a typed error payload.
 */
export function createIpcRouter<R extends RouteMap, H extends HandlersFor<R>>(
  routes: R,
  handlers: ExactHandlers<R, H>,
  options: { onHandlerError?: (route: string, error: unknown) => void } = {},
): IpcRouter {
  const table = handlers as unknown as Record<string, Handler<unknown, unknown>>
  return {
    has: (route) => Object.hasOwn(routes, route),
    async dispatch(route, rawInput, ctx) {
      const def = Object.hasOwn(routes, route) ? routes[route] : undefined
      const handler = table[route]
      if (!def || !handler) {
        return { ok: false, error: { code: 'UNKNOWN_ROUTE', message: `Unknown route "${route}".` } }
      }
      const parsed = def.input.safeParse(normaliseInput(def.input, rawInput))
      if (!parsed.success) {
        return {
          ok: false,
          error: {
            code: 'VALIDATION_FAILED',
            message: `Invalid input for ${route}.`,
            issues: toIssues(parsed.error),
          },
        }
      }
      try {
        const value = await handler(parsed.data, ctx)
        const checked = def.output.safeParse(value)
        if (!checked.success) {
          options.onHandlerError?.(route, checked.error)
          return { ok: false, error: { code: 'INTERNAL', message: `${route} produced an invalid reply.` } }
        }
        return { ok: true, value: checked.data }
      } catch (error) {
        if (!(error instanceof AppError)) options.onHandlerError?.(route, error)
        return { ok: false, error: errorPayloadOf(error, route) }
      }
    },
  }
}
