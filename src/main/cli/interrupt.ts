/** A repeat of the signal this soon after the first is the echo of a library's re-sent signal, not the user. */
const ECHO_MS = 1000

/**
 * Calls `onFirst` on the first of `signals` and exits on a later one (a second Ctrl+C); returns the
 * function that removes the handler. Not `process.once`: when-exit (through atomically) answers a signal
 * by sending it again, and signal-exit (through node-llama-cpp) kills the process when it sees no other
 * listener; with a `once` listener already gone, the first Ctrl+C killed the run before it could report.
 */
export function onInterrupt(
  onFirst: (signal: NodeJS.Signals) => void,
  signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'],
): () => void {
  let first: number | undefined
  const handler = (signal: NodeJS.Signals) => {
    if (first === undefined) {
      first = Date.now()
      onFirst(signal)
    } else if (Date.now() - first > ECHO_MS) process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  for (const signal of signals) process.on(signal, handler)
  return () => {
    for (const signal of signals) process.off(signal, handler)
  }
}
