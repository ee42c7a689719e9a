/**
 * A signal aborted by `outer` or after `ms`. Not `AbortSignal.any([outer, AbortSignal.timeout(ms)])`: in
 * Node 20 the composite holds its sources weakly, so the timeout signal can be garbage-collected and never
 * fire (a task with a model generating forever then ran past its limit).
 */
export function deadlineSignal(
  outer: AbortSignal,
  ms: number,
  reason: () => Error,
): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController()
  const onOuter = () => controller.abort(outer.reason)
  if (outer.aborted) onOuter()
  else outer.addEventListener('abort', onOuter, { once: true })
  const timer = setTimeout(() => controller.abort(reason()), ms)
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer)
      outer.removeEventListener('abort', onOuter)
    },
  }
}
