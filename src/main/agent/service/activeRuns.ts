/** What the registry needs of a run: its conversation, the way to stop it, and when it has ended. */
export interface ActiveRunBase {
  conversationId: string
  controller: AbortController
  finished: Promise<void>
}

export interface ActiveRuns<R extends ActiveRunBase> {
  get(id: string): R | undefined
  values(): IterableIterator<R>
  /**
   * Registers the run and starts `execute` on the next turn of the event loop, so the caller can reply with
   * the run's id before its first event; the run leaves the registry when `execute` settles.
   */
  start(id: string, run: R, execute: () => Promise<void>): void
  /** Whether a run of the conversation is still going. */
  busy(conversationId: string): boolean
  /** Stops one run; false when it is unknown or already stopping. */
  cancel(id: string): boolean
  /** Stops every run of a conversation (it is being deleted). */
  abortConversation(conversationId: string): void
  /** Resolves when every run has ended, including runs started meanwhile. */
  idle(): Promise<void>
  /** Stops every run and waits for them to end. */
  dispose(): Promise<void>
}

/** The runs in flight of one service (chat runs, spoken answers), by id. */
export function activeRuns<R extends ActiveRunBase>(): ActiveRuns<R> {
  const runs = new Map<string, R>()
  const idle = async () => {
    while (runs.size > 0) await Promise.all([...runs.values()].map((r) => r.finished))
  }
  return {
    get: (id) => runs.get(id),
    values: () => runs.values(),
    start(id, run, execute) {
      runs.set(id, run)
      run.finished = new Promise<void>((resolve) => setImmediate(resolve))
        .then(execute)
        .finally(() => runs.delete(id))
    },
    busy: (conversationId) => [...runs.values()].some((r) => r.conversationId === conversationId),
    cancel(id) {
      const run = runs.get(id)
      if (!run || run.controller.signal.aborted) return false
      run.controller.abort()
      return true
    },
    abortConversation(conversationId) {
      for (const run of runs.values()) if (run.conversationId === conversationId) run.controller.abort()
    },
    idle,
    async dispose() {
      for (const run of runs.values()) run.controller.abort()
      await idle()
    },
  }
}
