import type { Automation, AutomationRun, AutomationSummary } from '../../shared/automations'
import { AppError } from '../../shared/errors'
import type { AutomationStore } from './automationStore'
import { checkChange, checkDraft, type DraftContext } from './checkDraft'
import type { AutomationRunner } from './runner'
import { checkTimeZone, nextRuns, parseSchedule } from './schedule'

export interface SchedulePreview {
  cron: string
  text?: string
  timeZone: string
  next: string[]
}

/** The one way automations are created, changed and run: routes, the toolset and the CLI share it. */
export interface AutomationService {
  readonly store: AutomationStore
  list(): Promise<Automation[]>
  get(idOrName: string): Promise<Automation>
  /** Checks a draft (schedule, folder, toolsets), stores it, returns it as read back. */
  create(draft: unknown): Promise<Automation>
  update(idOrName: string, change: Record<string, unknown>): Promise<Automation>
  remove(idOrName: string): Promise<Automation>
  setEnabled(idOrName: string, enabled: boolean): Promise<Automation>
  history(idOrName: string): Promise<AutomationRun[]>
  summaries(): Promise<AutomationSummary[]>
  /** Runs one now and waits for it (needs the runner: the app, `bureau serve`, `bureau automations run`). */
  runNow(idOrName: string): Promise<AutomationRun>
  /** Queues one run and returns at once. */
  startNow(idOrName: string): Promise<{ queued: boolean }>
  /** A schedule's cron and next runs ("next 5 runs: …"). */
  preview(schedule: string, timeZone?: string, count?: number): SchedulePreview
  /** The runner that executes runs here (set by the composition root). */
  attach(runner: AutomationRunner): void
  readonly runner: AutomationRunner | undefined
}

export function createAutomationService(options: {
  store: AutomationStore
  context: DraftContext
  now?: () => Date
}): AutomationService {
  const { store, context } = options
  let runner: AutomationRunner | undefined
  const needRunner = () => {
    if (!runner)
      throw new AppError('UNAVAILABLE', 'Automations cannot run here; run them in the app or `bureau serve`.')
    return runner
  }
  return {
    store,
    get runner() {
      return runner
    },
    attach(next) {
      runner = next
    },
    list: () => store.list(),
    get: (idOrName) => store.get(idOrName),
    async create(draft) {
      return store.add(await checkDraft(draft, context))
    },
    async update(idOrName, change) {
      const current = await store.get(idOrName)
      return store.update(current.id, await checkChange(current, change, context))
    },
    async remove(idOrName) {
      return store.remove((await store.get(idOrName)).id)
    },
    async setEnabled(idOrName, enabled) {
      return store.update((await store.get(idOrName)).id, { enabled })
    },
    async history(idOrName) {
      return store.runs((await store.get(idOrName)).id)
    },
    async summaries() {
      if (runner) return runner.summaries()
      const runs = await store.runs()
      const at = options.now?.() ?? new Date()
      return (await store.list()).map((automation) => {
        const lastRun = runs.find((r) => r.automationId === automation.id)
        const next =
          automation.enabled && automation.trigger.kind === 'schedule'
            ? nextRuns(automation.trigger.cron, automation.trigger.timeZone ?? 'UTC', at, 5).map((d) =>
                d.toISOString(),
              )
            : []
        return { automation, nextRuns: next, ...(lastRun ? { lastRun } : {}), running: false, queued: 0 }
      })
    },
    runNow: async (idOrName) => needRunner().runNow(idOrName),
    async startNow(idOrName) {
      const automation = await store.get(idOrName)
      return { queued: needRunner().enqueue(automation, 'manual') }
    },
    preview(schedule, timeZone, count = 5) {
      const zone = checkTimeZone(timeZone ?? context.timeZone())
      const parsed = parseSchedule(schedule, zone)
      const next = nextRuns(
        parsed.cron,
        zone,
        options.now?.() ?? new Date(),
        Math.min(Math.max(count, 1), 20),
      )
      return { ...parsed, timeZone: zone, next: next.map((d) => d.toISOString()) }
    },
  }
}
