import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { AppError } from '../../../shared/errors'
import {
  defaultOfficeBenchDir,
  type EvalProgress,
  type EvalReport,
  formatPaperTable,
  formatReport,
  isOfficeBenchDir,
  loadOfficeBench,
  loadTaskSet,
  type OfficeBenchSet,
  type RunMode,
  runEval,
  saveLastResult,
  shippedEvalDir,
  type TaskSet,
} from '../../eval'
import { createLogger, defaultDataDir } from '../../platform'
import type { EvalCliOptions } from '../commandOptions'
import { onInterrupt } from '../interrupt'
import { UsageError } from '../program'
import { noticePrinter, processTextIo, stderrLine, type TextIo } from '../textIo'
import { openEvalEnvironment } from './evalEnvironment'

function modeOf(options: EvalCliOptions): RunMode {
  if (options.reference && options.wrong) throw new UsageError('--reference and --wrong cannot be combined')
  if ((options.reference || options.wrong) && (options.provider || options.model || options.mode))
    throw new UsageError(
      '--reference and --wrong replay tool calls without a model: drop --provider, --model and --mode',
    )
  return options.reference ? 'reference' : options.wrong ? 'wrong' : 'agent'
}

/** The tasks to run: Bureau's own suite (or --tasks-dir), or a third-party suite (--suite). */
function loadSuite(
  options: EvalCliOptions,
  mode: RunMode,
  env: NodeJS.ProcessEnv,
): { taskSet: TaskSet; evalDir: string | undefined; omitted: OfficeBenchSet['omitted'] } {
  const shipped = shippedEvalDir()
  if (!options.suite)
    return {
      taskSet: loadTaskSet(options.tasksDir ?? shipped, options.tasks),
      evalDir: options.tasksDir ?? shipped,
      omitted: [],
    }
  if (options.tasksDir) throw new UsageError('--suite and --tasks-dir cannot be combined')
  const dir =
    options.suite === 'officebench'
      ? defaultOfficeBenchDir(shipped ? dirname(shipped) : undefined, env)
      : resolve(options.suite)
  if (!isOfficeBenchDir(dir))
    throw new UsageError(
      options.suite === 'officebench'
        ? `the OfficeBench data is not in ${dir}: set BUREAU_OFFICEBENCH_DIR to the folder holding its tasks/ (from https://github.com/zlwang-cs/OfficeBench), or pass --suite <that folder>`
        : `${dir} is not an OfficeBench folder (it needs tasks/<apps>-<id>/subtasks/<n>.json)`,
    )
  const set = loadOfficeBench(dir, {
    filter: options.tasks,
    solutionsDir: shipped ? join(shipped, 'officebench') : undefined,
    mode,
  })
  return { taskSet: set, evalDir: dir, omitted: set.omitted }
}

/** One line per event on stderr: what starts, then what finished with its verdict. */
function progressPrinter(io: TextIo) {
  return (p: EvalProgress) => {
    if (p.next)
      io.err(
        `[${p.done + 1}/${p.total}] ${p.next.id}${p.next.attempt > 1 ? ` #${p.next.attempt}` : ''} ... (${p.passed} passed so far)\n`,
      )
  }
}

function isSuccess(report: EvalReport): boolean {
  const { passed, total } = report.totals.all
  // A wrong-solution replay succeeds when every checker rejected its mistake.
  return report.mode === 'wrong' ? passed === 0 : passed === total && total > 0
}

/** `bureau eval`: runs the suite, prints the table (and JSON), stores a model run's score. */
export async function runEvalCli(
  options: EvalCliOptions,
  io: TextIo = processTextIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const mode = modeOf(options)
  const { taskSet, evalDir, omitted } = loadSuite(options, mode, env)
  if (omitted.length > 0) {
    const noSolution = omitted.filter((o) => o.reason.startsWith('no ')).length
    io.err(
      `left out ${omitted.length} subtasks: ${noSolution} without a ${mode} solution, ${omitted.length - noSolution} whose own checks cannot pass (--json lists them)\n`,
    )
  }
  const dataDir = options.dataDir ?? defaultDataDir(env)
  const logger = createLogger({
    level: env.BUREAU_LOG_LEVEL === 'debug' ? 'debug' : 'error',
    write: stderrLine,
  })
  const scratchDir = await mkdtemp(join(tmpdir(), 'bureau-eval-browser-'))
  const environment = await openEvalEnvironment({
    dataDir,
    scratchDir,
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.browserExecutable ? { browserExecutable: options.browserExecutable } : {}),
    logger,
    notify: noticePrinter(io),
    env,
  })
  const controller = new AbortController()
  const stop = () => {
    io.err('\ninterrupted: finishing the report with the tasks that finished\n')
    controller.abort(new Error('interrupted'))
  }
  const release = onInterrupt(stop)
  let report: EvalReport
  try {
    report = await runEval({
      taskSet,
      evalDir: evalDir as string,
      env: environment,
      mode,
      repeat: options.repeat,
      taskTimeoutMs: options.timeout * 1000,
      signal: controller.signal,
      onProgress: progressPrinter(io),
      logger,
    })
  } finally {
    release()
    await environment.close()
    await rm(scratchDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
  }
  const json = `${JSON.stringify(options.suite ? { ...report, omitted } : report, null, 2)}\n`
  if (options.json === '-') io.out(json)
  else {
    io.out(formatReport(report))
    if (options.suite) io.out(formatPaperTable(report))
    if (options.json) await writeFile(options.json, json)
  }
  const partial = Boolean(options.tasks || options.tasksDir)
  // The stored score is the own suite's (Settings compares models on it); a third-party suite's is not mixed in.
  const saved = options.suite ? undefined : await saveLastResult(dataDir, report, partial)
  if (saved) io.err(`score saved for ${saved.provider}/${saved.model}: ${saved.passed}/${saved.total}\n`)
  if (report.interrupted) throw new AppError('CANCELLED', 'interrupted')
  if (!isSuccess(report)) {
    const { passed, total } = report.totals.all
    throw new AppError(
      'HANDLER_FAILED',
      mode === 'wrong'
        ? `${passed} of ${total} wrong solutions were accepted`
        : `${total - passed} of ${total} tasks failed`,
    )
  }
}
