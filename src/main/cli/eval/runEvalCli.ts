import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppError } from '../../../shared/errors'
import {
  type EvalProgress,
  type EvalReport,
  formatReport,
  loadTaskSet,
  type RunMode,
  runEval,
  saveLastResult,
  shippedEvalDir,
} from '../../eval'
import { createLogger } from '../../logging'
import { defaultDataDir } from '../../paths'
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
  const evalDir = options.tasksDir ?? shippedEvalDir()
  const taskSet = loadTaskSet(evalDir, options.tasks)
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
  const json = `${JSON.stringify(report, null, 2)}\n`
  if (options.json === '-') io.out(json)
  else {
    io.out(formatReport(report))
    if (options.json) await writeFile(options.json, json)
  }
  const partial = Boolean(options.tasks || options.tasksDir)
  const saved = await saveLastResult(dataDir, report, partial)
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
