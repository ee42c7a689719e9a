import type { UnattendedRunInput, UnattendedRunResult } from '../../../src/main/agent'
import type { Timers, UnattendedExecutor } from '../../../src/main/automations'

/** A clock the test moves by hand, with the runner's timers on it. */
export function fakeClock(start: string) {
  let now = new Date(start)
  const timers = new Map<number, { at: number; callback: () => void }>()
  let next = 1
  const api: Timers = {
    set(callback, ms) {
      const id = next++
      timers.set(id, { at: now.getTime() + ms, callback })
      return id
    },
    clear(handle) {
      timers.delete(handle as number)
    },
  }
  const settle = async () => {
    // The runner's tick reads and writes its file, then arms the next timer.
    for (let i = 0; i < 200 && timers.size === 0; i++) await new Promise((r) => setTimeout(r, 5))
  }
  return {
    now: () => new Date(now),
    timers: api,
    pending: () => timers.size,
    /** Moves the clock to `to`, firing each timer when it is due, in order. */
    async advanceTo(to: string, idle: () => Promise<void> = async () => undefined) {
      const end = new Date(to).getTime()
      for (;;) {
        const due = [...timers.entries()].sort((a, b) => a[1].at - b[1].at)[0]
        if (!due || due[1].at > end) break
        timers.delete(due[0])
        now = new Date(Math.max(now.getTime(), due[1].at))
        due[1].callback()
        await settle()
        await idle()
      }
      now = new Date(end)
    },
  }
}

/** Records each unattended run the runner asks for and answers it at once. */
export function recordingExecutor(answer: Partial<UnattendedRunResult> = {}) {
  const calls: (UnattendedRunInput & { at: Date })[] = []
  let clock: () => Date = () => new Date()
  const executor: UnattendedExecutor = {
    async runUnattended(input) {
      calls.push({ ...input, at: clock() })
      return {
        conversationId: `c${calls.length}`,
        status: 'ok',
        message: 'Done.',
        decisions: [],
        usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 },
        files: [],
        steps: 1,
        ...answer,
      }
    },
  }
  return { executor, calls, followClock: (c: () => Date) => (clock = c) }
}
