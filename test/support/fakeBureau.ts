import { AppError } from '../../src/shared/errors'
import {
  createIpcClient,
  type EventName,
  type EventPayload,
  type Events,
  type IpcClient,
  type RouteInput,
  type RouteName,
  type RouteOutput,
  type Routes,
} from '../../src/shared/ipc'

/** What a test answers, route by route; the types are the contract's, so a wrong shape does not compile. */
export type FakeRoutes = {
  [K in RouteName]?: (
    input: RouteInput<Routes, K>,
  ) => RouteOutput<Routes, K> | Promise<RouteOutput<Routes, K>>
}

export interface FakeBureau extends IpcClient {
  /** Every call in order, with the input as sent. */
  readonly calls: { route: RouteName; input: unknown }[]
  /** The inputs sent to one route, in order. */
  callsTo<K extends RouteName>(route: K): RouteInput<Routes, K>[]
  /** Answers (or re-answers) a route. */
  handle<K extends RouteName>(route: K, handler: NonNullable<FakeRoutes[K]>): void
  /** Delivers an event to the listeners, as the host would. */
  emit<K extends EventName>(event: K, payload: EventPayload<Events, K>): void
  /** How many listeners an event has now. */
  listenerCount(event: EventName): number
  /** Every `on` call in order (a test may empty it). */
  readonly subscriptions: EventName[]
}

/**
 * A client for renderer tests, passed to `<BureauProvider client={...}>`: the real `createIpcClient` over a
 * transport that answers from `routes`. A route without an answer fails as the host does (UNKNOWN_ROUTE); a
 * handler that throws an AppError reaches the caller as that AppError. `otherwise` answers the routes `routes`
 * leaves out, for a test that answers many routes from one function (a `vi.fn` whose calls it inspects).
 */
export function fakeBureau(
  routes: FakeRoutes = {},
  otherwise?: (route: RouteName, ...input: unknown[]) => unknown,
): FakeBureau {
  const handlers: FakeRoutes = { ...routes }
  const calls: { route: RouteName; input: unknown }[] = []
  let deliver: ((event: string, payload: unknown) => void) | undefined
  const counts = new Map<string, number>()
  const subscriptions: EventName[] = []

  const client = createIpcClient({
    kind: 'http',
    async invoke(route, input) {
      calls.push({ route: route as RouteName, input })
      const handler =
        (handlers[route as RouteName] as ((input: unknown) => unknown) | undefined) ??
        (otherwise &&
          ((input: unknown) => otherwise(route as RouteName, ...(input === undefined ? [] : [input]))))
      if (!handler)
        return {
          ok: false,
          error: { code: 'UNKNOWN_ROUTE', message: `The fake has no answer for ${route}.` },
        }
      try {
        return { ok: true, value: await handler(input) }
      } catch (error) {
        if (error instanceof AppError) {
          return { ok: false, error: { code: error.code, message: error.message, issues: error.issues } }
        }
        return { ok: false, error: { code: 'HANDLER_FAILED', message: (error as Error).message } }
      }
    },
    subscribe(listener) {
      deliver = listener
      return () => {
        deliver = undefined
      }
    },
  })

  return {
    ...client,
    on(event, listener) {
      subscriptions.push(event)
      counts.set(event, (counts.get(event) ?? 0) + 1)
      const off = client.on(event, listener)
      let on = true
      return () => {
        if (on) counts.set(event, (counts.get(event) ?? 1) - 1)
        on = false
        off()
      }
    },
    calls,
    callsTo: <K extends RouteName>(route: K) =>
      calls.filter((call) => call.route === route).map((call) => call.input as RouteInput<Routes, K>),
    handle(route, handler) {
      ;(handlers as Record<string, unknown>)[route] = handler
    },
    emit(event, payload) {
      deliver?.(event, payload)
    },
    listenerCount: (event) => counts.get(event) ?? 0,
    subscriptions,
  }
}
