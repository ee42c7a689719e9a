/** How long `bureau serve` waits for a clean shutdown after SIGTERM/SIGINT before it gives up on it. */
export const SHUTDOWN_DEADLINE_MS = 4000

export interface ShutdownOutcome {
  readonly clean: boolean
}

/**
 * Runs the shutdown steps, but never for longer than `deadlineMs`: a run stuck in a tool, a browser that
 * does not close or a hanging disposer must not keep the host alive after SIGTERM (the CLI entry exits
 * as soon as this returns). A second signal cuts the wait short.
 */
export async function shutdownWithin(
  steps: () => Promise<void>,
  options: { deadlineMs?: number; signals?: readonly NodeJS.Signals[]; onTimeout?: () => void } = {},
): Promise<ShutdownOutcome> {
  let timer: NodeJS.Timeout | undefined
  let giveUp: () => void = () => undefined
  const deadline = new Promise<ShutdownOutcome>((resolve) => {
    giveUp = () => resolve({ clean: false })
    timer = setTimeout(giveUp, options.deadlineMs ?? SHUTDOWN_DEADLINE_MS)
  })
  const signals = options.signals ?? []
  for (const signal of signals) process.once(signal, giveUp)
  const finished = steps().then(
    () => ({ clean: true }),
    () => ({ clean: false }),
  )
  try {
    const outcome = await Promise.race([finished, deadline])
    if (!outcome.clean) options.onTimeout?.()
    return outcome
  } finally {
    clearTimeout(timer)
    for (const signal of signals) process.off(signal, giveUp)
  }
}
