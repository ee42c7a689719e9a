import type { EventMap, EventPayload } from '../../shared/ipc'

export type EventListener = (event: string, payload: unknown) => void

/** Typed, validated events fanned out to every transport (Electron windows, SSE clients, the CLI). */
export interface EventBus<E extends EventMap> {
  emit<K extends keyof E & string>(event: K, payload: EventPayload<E, K>): void
  subscribe(listener: EventListener): () => void
}

export function createEventBus<E extends EventMap>(
  events: E,
  options: { onInvalid?: (event: string, error: unknown) => void } = {},
): EventBus<E> {
  const listeners = new Set<EventListener>()
  return {
    emit(event, payload) {
      const schema = events[event]
      const checked = schema?.safeParse(payload)
      if (!checked?.success) {
        options.onInvalid?.(event, checked?.error)
        return
      }
      for (const listener of [...listeners]) {
        try {
          listener(event, checked.data)
        } catch (error) {
          options.onInvalid?.(event, error)
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
