import { AppError, type ErrorCode, type ValidationIssue } from '../errors/appError'
import type { EventName, Events, RouteName, Routes } from './contract'
import type { EventPayload, RouteInput, RouteOutput } from './defineContract'

/** The raw channel a client speaks through: Electron preload IPC or HTTP. */
export interface IpcTransport {
  kind: 'electron' | 'http'
  invoke(route: string, input: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }>
  subscribe(listener: (event: string, payload: unknown) => void): () => void
}

type InvokeArgs<K extends RouteName> =
  undefined extends RouteInput<Routes, K> ? [input?: RouteInput<Routes, K>] : [input: RouteInput<Routes, K>]

export interface IpcClient {
  readonly transport: IpcTransport['kind']
  invoke<K extends RouteName>(route: K, ...args: InvokeArgs<K>): Promise<RouteOutput<Routes, K>>
  on<K extends EventName>(event: K, listener: (payload: EventPayload<Events, K>) => void): () => void
  /** Closes the event subscription (e.g. the SSE stream). */
  close(): void
}

// A structural check rather than the zod schema keeps zod out of the renderer's initial bundle.
function toAppError(raw: unknown): AppError {
  const error = raw as { code?: unknown; message?: unknown; issues?: unknown } | null
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    const issues = Array.isArray(error.issues) ? (error.issues as ValidationIssue[]) : undefined
    return new AppError(error.code as ErrorCode, error.message, issues)
  }
  return new AppError('INTERNAL', 'The app answered with an unreadable error.')
}

/** A typed client over any transport. Outputs are trusted: main validated them before sending. */
export function createIpcClient(transport: IpcTransport): IpcClient {
  const listeners = new Map<string, Set<(payload: never) => void>>()
  let unsubscribe: (() => void) | undefined

  const ensureSubscribed = () => {
    unsubscribe ??= transport.subscribe((event, payload) => {
      for (const listener of listeners.get(event) ?? []) listener(payload as never)
    })
  }

  return {
    transport: transport.kind,
    async invoke(route, ...args) {
      const reply = await transport.invoke(route, args[0])
      if (!reply.ok) throw toAppError(reply.error)
      return reply.value as never
    },
    on(event, listener) {
      ensureSubscribed()
      const set = listeners.get(event) ?? new Set()
      set.add(listener as (payload: never) => void)
      listeners.set(event, set)
      return () => {
        set.delete(listener as (payload: never) => void)
      }
    },
    close() {
      unsubscribe?.()
      unsubscribe = undefined
      listeners.clear()
    },
  }
}
