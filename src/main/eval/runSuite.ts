import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deadlineSignal } from '../../shared/async/deadlineSignal'
import type { Logger } from '../platform'
import { createUrlGuard } from '../tools'
import type { EvalEnvironment } from './environment'
import { type EvalMail, startEvalMail } from './mail/taskMail'
import { totalsOf } from './report'
import type { EvalReport, RunMode, TaskRun } from './results'
import { fixturesDirOf, runTask } from './runTask'
import { startTestSite } from './siteServer'
import type { TaskSet } from './suite'

export interface EvalProgress {
  done: number
  total: number
  passed: number
  /** The attempt starting now (undefined once everything finished). */
  next?: { id: string; attempt: number }
  last?: TaskRun
}

export interface RunEvalOptions {
  taskSet: TaskSet
  evalDir: string
  env: EvalEnvironment
  mode: RunMode
  repeat?: number
  /** Longest one attempt may take (default 10 minutes). */
  taskTimeoutMs?: number
  /** Stops the run: the attempt in progress is cancelled and the report holds what finished. */
  signal?: AbortSignal
  onProgress?: (progress: EvalProgress) => void
  logger?: Logger
}

const DEFAULT_TASK_TIMEOUT_MS = 10 * 60_000

/** Runs every task of the set `repeat` times, one after the other, each in a fresh workspace. */
export async function runEval(options: RunEvalOptions): Promise<EvalReport> {
  const repeat = Math.max(1, options.repeat ?? 1)
  const startedAt = new Date().toISOString()
  const tempRoot = await mkdtemp(join(tmpdir(), 'bureau-eval-'))
  const site = await startTestSite(join(fixturesDirOf(options.evalDir), 'web'))
  // The web tasks open the harness's own pages on 127.0.0.1 and nothing else local.
  const urlGuard = createUrlGuard({ allowHosts: ['127.0.0.1'] })
  const runs: TaskRun[] = []
  const total = options.taskSet.tasks.length * repeat
  const outer = options.signal ?? new AbortController().signal
  const model = options.mode === 'agent' ? await options.env.openModel() : undefined
  // Started by the first e-mail task only; a missing Dovecot fails those tasks, with the reason.
  let mail: Promise<EvalMail> | undefined
  const mailServer = () => {
    mail ??= startEvalMail()
    return mail
  }
  try {
    for (let attempt = 1; attempt <= repeat; attempt++) {
      for (const task of options.taskSet.tasks) {
        if (outer.aborted) break
        const passed = runs.filter((r) => r.passed).length
        options.onProgress?.({ done: runs.length, total, passed, next: { id: task.id, attempt } })
        const limitMs = options.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS
        const deadline = deadlineSignal(
          outer,
          limitMs,
          () => new Error(`the task's time limit of ${Math.round(limitMs / 1000)} s ran out`),
        )
        const run = await runTask(task, {
          env: options.env,
          site,
          fixturesDir: fixturesDirOf(options.evalDir),
          tempRoot,
          urlGuard,
          mail: mailServer,
          mode: options.mode,
          attempt,
          signal: deadline.signal,
          ...(options.logger ? { logger: options.logger } : {}),
        }).finally(() => deadline.dispose())
        // An attempt cut short by Ctrl+C did not finish: it is not reported as a failure of the model.
        if (outer.aborted) break
        runs.push(run)
      }
    }
  } finally {
    await site.close()
    await mail?.then((m) => m.close()).catch(() => {})
    await rm(tempRoot, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
  options.onProgress?.({
    done: runs.length,
    total,
    passed: runs.filter((r) => r.passed).length,
    ...(runs.at(-1) ? { last: runs.at(-1) } : {}),
  })
  return {
    mode: options.mode,
    ...(model
      ? { provider: model.provider, model: model.model, interactionMode: model.interactionMode }
      : {}),
    taskSet: {
      version: options.taskSet.version,
      digest: options.taskSet.digest,
      tasks: options.taskSet.tasks.length,
    },
    startedAt,
    finishedAt: new Date().toISOString(),
    interrupted: outer.aborted,
    repeat,
    runs,
    totals: totalsOf(runs),
  }
}
