import { randomBytes } from 'node:crypto'
import type {
  Automation,
  AutomationRun,
  AutomationSummary,
  FileTrigger,
  MailTrigger,
} from '../../shared/automations'
import type { UnattendedRunInput, UnattendedRunResult } from '../../shared/automations/unattended'
import { AppError } from '../../shared/errors'
import type { Logger } from '../platform'
import type { Workspace } from '../workspace'
import type { AutomationStore } from './automationStore'
import { type FileTriggers, watchFileTriggers } from './fileTriggers'
import { lastSlotBetween, nextRuns } from './schedule'

/** What the runner needs from the chat service: one unattended run kept as a conversation. */
export interface UnattendedExecutor {
  runUnattended(input: UnattendedRunInput): Promise<UnattendedRunResult>
}

/** A message that matched a mail trigger. */
export interface MatchedMail {
  uid: number
  from: string
  subject: string
}

/** Starts watching one mail trigger's folder; `onMessage` gets each new message that matches. */
export type MailWatch = (
  trigger: MailTrigger,
  onMessage: (mail: MatchedMail) => void,
  onError: (message: string) => void,
) => Promise<{ close(): Promise<void> }>

export interface Timers {
  set(callback: () => void, ms: number): unknown
  clear(handle: unknown): void
}

export interface AutomationRunnerOptions {
  store: AutomationStore
  executor: () => UnattendedExecutor | Promise<UnattendedExecutor>
  /** The workspace of file triggers, attachments and result files. */
  workspace?: () => Workspace
  mail?: MailWatch
  /** Runs at the same time, all automations together (default 2). */
  maxConcurrent?: number
  /** Runs waiting per automation; more are dropped and reported (default 100). */
  queueCap?: number
  /** Quiet time after the last dropped trigger before the drops are reported together (default 1,000 ms). */
  dropReportMs?: number
  /** Quiet time after a file's last change before it starts a run (default 1,000 ms). */
  settleMs?: number
  /** A slot older than this at start-up is "missed" (default 60 s). */
  missedAfterMs?: number
  now?: () => Date
  timers?: Timers
  /** The longest sleep between checks, so a clock moved by hand is noticed (default 10 minutes). */
  maxSleepMs?: number
  /** A run ended (ok, failed, denied calls, interrupted, skipped). */
  onRunEnded?: (run: AutomationRun, automation: Automation) => void
  /** Something to show the user that is not one run (a flood of files, a trigger that failed to start). */
  onProblem?: (message: string) => void
  /** Any change of the list, of a run or of the queue (the page refreshes). */
  onChange?: () => void
  logger?: Logger
}

export interface AutomationRunner {
  /** Marks runs of a closed app interrupted, handles missed schedules, arms the timer and the triggers. */
  start(): Promise<void>
  /** Queues one run now; resolves with the finished run. */
  runNow(idOrName: string): Promise<AutomationRun>
  /** Queues one run and returns at once (false: the automation's queue is full). */
  enqueue(automation: Automation, cause: AutomationRun['cause'], detail?: string, file?: string): boolean
  /** Runs the schedules that are due (and missed ones), then waits for every run: `bureau automations run-pending`. */
  runPending(): Promise<AutomationRun[]>
  summaries(): Promise<AutomationSummary[]>
  /** The next `count` times of a schedule, for the editor's preview. */
  preview(cron: string, timeZone: string, count: number): string[]
  /** Resolves when the triggers and the timer follow the latest change of the list. */
  settled(): Promise<void>
  /** Resolves when nothing runs and nothing waits. */
  idle(): Promise<void>
  /** Stops the timer and triggers, stops runs (they are saved as interrupted). */
  stop(): Promise<void>
}

interface Job {
  automationId: string
  cause: AutomationRun['cause']
  detail?: string
  file?: string
  done: ((run: AutomationRun) => void)[]
}

const MAX_SLEEP_MS = 10 * 60_000
const newRunId = () => `r${Date.now().toString(36)}${randomBytes(3).toString('hex')}`

export function createAutomationRunner(options: AutomationRunnerOptions): AutomationRunner {
  const { store } = options
  const now = options.now ?? (() => new Date())
  const timers: Timers = options.timers ?? {
    set: (callback, ms) => {
      const handle = setTimeout(callback, ms)
      handle.unref?.()
      return handle
    },
    clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
  }
  const maxConcurrent = Math.max(1, options.maxConcurrent ?? 2)
  const queueCap = Math.max(1, options.queueCap ?? 100)
  const missedAfterMs = options.missedAfterMs ?? 60_000
  const pending: Job[] = []
  const running = new Map<string, Promise<void>>()
  const stopper = new AbortController()
  const dropped = new Map<string, { count: number; first: string[] }>()
  let timer: unknown
  let dropTimer: NodeJS.Timeout | undefined
  let stopped = false
  let started = false
  let files: FileTriggers | undefined
  const mailWatches = new Map<string, { key: string; close(): Promise<void> }>()
  const idleWaiters: (() => void)[] = []
  const changed = () => options.onChange?.()

  const isIdle = () => pending.length === 0 && running.size === 0
  const settleIdle = () => {
    if (!isIdle()) return
    for (const resolve of idleWaiters.splice(0)) resolve()
  }

  function pump(): void {
    if (stopped) return
    while (running.size < maxConcurrent) {
      const index = pending.findIndex((job) => !running.has(job.automationId))
      if (index < 0) break
      const [job] = pending.splice(index, 1)
      if (!job) break
      const task = execute(job)
        .catch((error) => options.logger?.error('automation run crashed', { error: String(error) }))
        .finally(() => {
          running.delete(job.automationId)
          changed()
          pump()
          settleIdle()
        })
      running.set(job.automationId, task)
    }
    changed()
  }

  function reportDropped(): Promise<void> {
    dropTimer = undefined
    const reports: Promise<void>[] = []
    for (const [id, entry] of dropped) {
      dropped.delete(id)
      const report = store
        .get(id)
        .then(async (automation) => {
          const at = now().toISOString()
          const message =
            `${entry.count} ${entry.count === 1 ? 'trigger was' : 'triggers were'} not run: at most ${queueCap} runs wait per automation` +
            ` (first: ${entry.first.join(', ')}).`
          const run = await store.saveRun({
            id: newRunId(),
            automationId: id,
            cause: 'file',
            detail: entry.first.join(', '),
            startedAt: at,
            finishedAt: at,
            status: 'skipped',
            message,
            denials: [],
            steps: 0,
            usage: { inputTokens: 0, outputTokens: 0 },
          })
          options.onProblem?.(`Automation "${automation.name}": ${message}`)
          options.onRunEnded?.(run, automation)
        })
        .catch((error) => options.logger?.warn('dropped triggers not recorded', { error: String(error) }))
      reports.push(report)
    }
    return Promise.all(reports).then(() => undefined)
  }

  function enqueue(
    automation: Automation,
    cause: AutomationRun['cause'],
    detail?: string,
    file?: string,
    done?: (run: AutomationRun) => void,
  ): boolean {
    if (stopped) return false
    const waiting = pending.filter((job) => job.automationId === automation.id)
    // A schedule that is already waiting needs no second run.
    if ((cause === 'schedule' || cause === 'missed') && waiting.some((j) => j.cause === cause)) return true
    if (waiting.length >= queueCap) {
      const entry = dropped.get(automation.id) ?? { count: 0, first: [] }
      // One report per burst: it waits until no trigger has been dropped for a moment.
      clearTimeout(dropTimer)
      dropTimer = setTimeout(() => void reportDropped(), options.dropReportMs ?? 1000)
      dropTimer.unref?.()
      entry.count++
      if (entry.first.length < 3) entry.first.push(detail ?? cause)
      dropped.set(automation.id, entry)
      return false
    }
    pending.push({
      automationId: automation.id,
      cause,
      ...(detail !== undefined ? { detail } : {}),
      ...(file !== undefined ? { file } : {}),
      done: done ? [done] : [],
    })
    pump()
    return true
  }

  async function attachmentsOf(job: Job) {
    if (!job.file || !options.workspace) return []
    const bytes = await options.workspace().readFile(job.file, { maxBytes: 50 * 1024 * 1024 })
    return [{ name: job.file.split('/').pop() || 'file', bytes }]
  }

  function promptOf(automation: Automation, job: Job): string {
    const started =
      job.cause === 'file'
        ? `This run was started by the file ${job.file}, which is attached.`
        : job.cause === 'mail'
          ? `This run was started by a new e-mail: ${job.detail}.`
          : job.cause === 'missed'
            ? `This run makes up for the scheduled time ${job.detail}, missed while Bureau was closed.`
            : job.cause === 'schedule'
              ? `This run was started by its schedule (${job.detail}).`
              : 'This run was started by hand.'
    return `${automation.prompt}\n\n(Automation "${automation.name}", running unattended: nobody can answer questions. ${started})`
  }

  /** The call that mails a run's answer (the email toolset's send). */
  function mailOf(automation: Automation, output: Extract<Automation['output'], { kind: 'email' }>) {
    return (answer: string) => ({
      name: 'email_send',
      arguments: {
        to: output.to,
        ...(output.account ? { account: output.account } : {}),
        subject: `Bureau automation: ${automation.name}`,
        markdown: answer.trim() || '(The run gave no answer.)',
      },
    })
  }

  async function execute(job: Job): Promise<void> {
    let automation: Automation
    try {
      automation = await store.get(job.automationId)
    } catch {
      return // deleted while it waited
    }
    const run: AutomationRun = {
      id: newRunId(),
      automationId: automation.id,
      cause: job.cause,
      ...(job.detail !== undefined ? { detail: job.detail.slice(0, 2000) } : {}),
      startedAt: now().toISOString(),
      status: 'running',
      message: '',
      denials: [],
      steps: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
    }
    await store.saveRun(run)
    changed()
    let final: AutomationRun
    try {
      const attachments = await attachmentsOf(job)
      const executor = await options.executor()
      const result = await executor.runUnattended({
        title: `${automation.name} · ${run.startedAt.slice(0, 16).replace('T', ' ')}`,
        prompt: promptOf(automation, job),
        attachments,
        ...(automation.toolsets ? { toolsets: automation.toolsets } : {}),
        withoutToolsets: ['automations'],
        ...(automation.model ? { model: automation.model } : {}),
        approve: automation.approve,
        maxIterations: automation.maxSteps,
        deadlineMs: automation.deadlineMinutes * 60_000,
        signal: stopper.signal,
        ...(automation.output.kind === 'email' ? { deliver: mailOf(automation, automation.output) } : {}),
      })
      const denials = result.decisions.filter((d) => d.outcome === 'denied').slice(0, 200)
      const undelivered = result.delivery && !result.delivery.ok && !result.delivery.denied
      const status: AutomationRun['status'] =
        result.status === 'cancelled'
          ? 'interrupted'
          : result.status === 'failed' || undelivered
            ? 'failed'
            : denials.length > 0
              ? 'denied'
              : 'ok'
      final = {
        ...run,
        finishedAt: now().toISOString(),
        status,
        message: result.message.slice(0, 4000),
        ...(result.error ? { error: result.error.slice(0, 2000) } : {}),
        ...(undelivered
          ? { error: `The result could not be e-mailed: ${result.delivery?.message ?? ''}`.slice(0, 2000) }
          : {}),
        conversationId: result.conversationId,
        denials: denials.map((d) => ({
          call: d.call,
          risk: d.risk,
          outcome: d.outcome,
          ...(d.reason ? { reason: d.reason.slice(0, 2000) } : {}),
        })),
        steps: result.steps,
        usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
      }
      if (
        (status === 'ok' || status === 'denied') &&
        automation.output.kind === 'file' &&
        options.workspace
      ) {
        try {
          await options
            .workspace()
            .appendText(
              automation.output.path,
              `\n## ${automation.name} — ${final.finishedAt}\n\n${result.message.trim()}\n`,
            )
        } catch (error) {
          final.status = 'failed'
          final.error = `The answer could not be written to ${automation.output.path}: ${error instanceof Error ? error.message : String(error)}`
        }
      }
    } catch (error) {
      final = {
        ...run,
        finishedAt: now().toISOString(),
        status: stopper.signal.aborted ? 'interrupted' : 'failed',
        error: (error instanceof AppError || error instanceof Error ? error.message : String(error)).slice(
          0,
          2000,
        ),
      }
    }
    const saved = await store.saveRun(final)
    for (const done of job.done) done(saved)
    options.onRunEnded?.(saved, automation)
  }

  /** Runs the slots that fell since each schedule's last one (once, however many), then sleeps until the next. */
  async function tick(atStart: boolean): Promise<void> {
    if (stopped) return
    const at = now()
    for (const automation of await store.list()) {
      if (!automation.enabled || automation.trigger.kind !== 'schedule') continue
      const { cron } = automation.trigger
      const zone = automation.trigger.timeZone ?? 'UTC'
      const after = new Date(automation.lastSlot ?? automation.createdAt)
      let slot: Date | undefined
      try {
        slot = lastSlotBetween(cron, zone, after, at)
      } catch (error) {
        options.onProblem?.(
          `Automation "${automation.name}": ${error instanceof Error ? error.message : String(error)}`,
        )
        continue
      }
      if (!slot) continue
      await store.setLastSlot(automation.id, slot.toISOString())
      const missed = atStart && at.getTime() - slot.getTime() > missedAfterMs
      if (!missed) {
        enqueue(automation, 'schedule', slot.toISOString())
      } else if (automation.missed === 'run-once') {
        enqueue(automation, 'missed', slot.toISOString())
      } else {
        const iso = at.toISOString()
        const run = await store.saveRun({
          id: newRunId(),
          automationId: automation.id,
          cause: 'missed',
          detail: slot.toISOString(),
          startedAt: iso,
          finishedAt: iso,
          status: 'skipped',
          message: `Skipped the run of ${slot.toISOString()}, missed while Bureau was closed.`,
          denials: [],
          steps: 0,
          usage: { inputTokens: 0, outputTokens: 0 },
        })
        options.onRunEnded?.(run, automation)
      }
    }
  }

  async function arm(): Promise<void> {
    if (timer !== undefined) timers.clear(timer)
    timer = undefined
    if (stopped) return
    const at = now()
    let earliest = Number.POSITIVE_INFINITY
    for (const automation of await store.list()) {
      if (!automation.enabled || automation.trigger.kind !== 'schedule') continue
      const from = new Date(Math.max(at.getTime(), Date.parse(automation.lastSlot ?? automation.createdAt)))
      try {
        const next = nextRuns(automation.trigger.cron, automation.trigger.timeZone ?? 'UTC', from, 1)[0]
        if (next) earliest = Math.min(earliest, next.getTime())
      } catch {
        // Reported by tick.
      }
    }
    if (!Number.isFinite(earliest)) return
    // Woken at least every ten minutes, so a clock moved by hand is noticed.
    const delay = Math.min(Math.max(earliest - at.getTime(), 0), options.maxSleepMs ?? MAX_SLEEP_MS)
    timer = timers.set(() => {
      timer = undefined
      void serial(async () => {
        await tick(false)
        await arm()
      })
    }, delay)
  }

  async function syncTriggers(): Promise<void> {
    if (stopped) return
    const all = await store.list()
    const fileAutomations = all.filter(
      (a): a is Automation & { trigger: FileTrigger } => a.enabled && a.trigger.kind === 'file',
    )
    if (options.workspace) {
      if (fileAutomations.length > 0 && !files) {
        files = await watchFileTriggers({
          workspace: options.workspace(),
          settleMs: options.settleMs ?? 1000,
          automations: async () =>
            (await store.list()).filter(
              (a): a is Automation & { trigger: FileTrigger } => a.enabled && a.trigger.kind === 'file',
            ),
          onFile: (automation, path) => enqueue(automation, 'file', path, path),
          onError: (message) => options.onProblem?.(message),
        })
      } else if (fileAutomations.length === 0 && files) {
        const closing = files
        files = undefined
        await closing.close()
      }
    }
    if (options.mail) {
      const wanted = all.filter(
        (a): a is Automation & { trigger: MailTrigger } => a.enabled && a.trigger.kind === 'mail',
      )
      for (const [id, watch] of mailWatches) {
        const still = wanted.find((a) => a.id === id)
        if (!still || JSON.stringify(still.trigger) !== watch.key) {
          mailWatches.delete(id)
          await watch.close()
        }
      }
      for (const automation of wanted) {
        if (mailWatches.has(automation.id)) continue
        const key = JSON.stringify(automation.trigger)
        try {
          const watch = await options.mail(
            automation.trigger,
            (mail) => {
              void store
                .get(automation.id)
                .then((current) => {
                  if (current.enabled)
                    enqueue(current, 'mail', `from ${mail.from}, subject "${mail.subject}" (uid ${mail.uid})`)
                })
                .catch(() => undefined)
            },
            (message) => options.onProblem?.(`Automation "${automation.name}": ${message}`),
          )
          mailWatches.set(automation.id, { key, close: () => watch.close() })
        } catch (error) {
          options.onProblem?.(
            `Automation "${automation.name}": the mail folder cannot be watched: ${error instanceof Error ? error.message : String(error)}`,
          )
        }
      }
    }
  }

  // Ticks, arming and trigger changes run one after another: two ticks at once would run a slot twice.
  let syncing: Promise<void> = Promise.resolve()
  function serial(task: () => Promise<void>): Promise<void> {
    syncing = syncing
      .then(task)
      .catch((error) => options.logger?.error('automation schedule failed', { error: String(error) }))
    return syncing
  }
  const resync = () => {
    void serial(async () => {
      await syncTriggers()
      await arm()
      changed()
    })
  }
  let unsubscribe: (() => void) | undefined

  return {
    async start() {
      if (started) return
      started = true
      const interrupted = await store.interruptRunning()
      for (const run of interrupted) {
        const automation = await store.get(run.automationId).catch(() => undefined)
        if (automation) options.onRunEnded?.(run, automation)
      }
      await serial(() => tick(true))
      unsubscribe = store.onChange(resync)
      resync()
      await syncing
    },
    enqueue: (automation, cause, detail, file) => enqueue(automation, cause, detail, file),
    async runNow(idOrName) {
      const automation = await store.get(idOrName)
      return new Promise<AutomationRun>((resolve, reject) => {
        if (!enqueue(automation, 'manual', undefined, undefined, resolve))
          reject(
            new AppError(
              'CONFLICT',
              `"${automation.name}" has ${queueCap} runs waiting already; wait for them.`,
            ),
          )
      })
    },
    async runPending() {
      const before = new Set((await store.runs()).map((r) => r.id))
      await serial(() => tick(true))
      await this.idle()
      return (await store.runs()).filter((r) => !before.has(r.id))
    },
    async summaries() {
      const at = now()
      const runs = await store.runs()
      return (await store.list()).map((automation) => {
        let next: string[] = []
        if (automation.enabled && automation.trigger.kind === 'schedule') {
          try {
            const from = new Date(
              Math.max(at.getTime(), Date.parse(automation.lastSlot ?? automation.createdAt)),
            )
            next = nextRuns(automation.trigger.cron, automation.trigger.timeZone ?? 'UTC', from, 5).map((d) =>
              d.toISOString(),
            )
          } catch {
            next = []
          }
        }
        const lastRun = runs.find((r) => r.automationId === automation.id)
        return {
          automation,
          nextRuns: next,
          ...(lastRun ? { lastRun } : {}),
          running: running.has(automation.id),
          queued: pending.filter((j) => j.automationId === automation.id).length,
        }
      })
    },
    preview: (cron, timeZone, count) => nextRuns(cron, timeZone, now(), count).map((d) => d.toISOString()),
    settled: () => syncing,
    idle: () =>
      isIdle()
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            idleWaiters.push(resolve)
          }),
    async stop() {
      stopped = true
      unsubscribe?.()
      if (timer !== undefined) timers.clear(timer)
      clearTimeout(dropTimer)
      await reportDropped()
      pending.length = 0
      stopper.abort()
      await syncing
      await Promise.all([...running.values()])
      await files?.close()
      files = undefined
      for (const watch of mailWatches.values()) await watch.close()
      mailWatches.clear()
      settleIdle()
    },
  }
}
