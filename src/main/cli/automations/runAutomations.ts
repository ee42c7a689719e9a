import type { AutomationRun } from '../../../shared/automations'
import { AppError } from '../../../shared/errors'
import { type AutomationService, describeTrigger } from '../../automations'
import { composeCore } from '../../core'
import { createLogger, defaultDataDir, type Logger, silentLogger } from '../../platform'
import { processTextIo, stderrLine, type TextIo } from '../textIo'

export interface AutomationsCliOptions {
  dataDir?: string
  workspace?: string
  json?: boolean
}

export interface AutomationAddOptions extends AutomationsCliOptions {
  prompt: string
  every?: string
  cron?: string
  timeZone?: string
  onFile?: string
  glob?: string
  onMail?: string
  from?: string
  subject?: string
  account?: string
  approve?: string
  toolsets?: string
  resultFile?: string
  resultMail?: string
  skipMissed?: boolean
  maxSteps?: string
  deadline?: string
  disabled?: boolean
}

async function withService<T>(
  options: AutomationsCliOptions,
  io: TextIo,
  task: (service: AutomationService) => Promise<T>,
): Promise<T> {
  const core = await composeCore({
    dataDir: options.dataDir ?? defaultDataDir(),
    ...(options.workspace ? { workspaceDir: options.workspace } : {}),
    logger: silentLogger,
    notify: (notice) => io.err(`${notice.level}: ${notice.message}\n`),
    watchPlugins: false,
    pluginLogger: silentLogger,
    indexing: 'off',
  })
  try {
    return await task(core.automations)
  } finally {
    await core.close()
  }
}

function triggerOf(options: AutomationAddOptions) {
  const chosen = [options.every, options.cron, options.onFile, options.onMail].filter((v) => v !== undefined)
  if (chosen.length > 1)
    throw new AppError('VALIDATION_FAILED', 'Give one trigger: --every, --cron, --on-file or --on-mail.')
  const zone = options.timeZone ? { timeZone: options.timeZone } : {}
  if (options.every !== undefined) return { kind: 'schedule', cron: options.every, ...zone }
  if (options.cron !== undefined) return { kind: 'schedule', cron: options.cron, ...zone }
  if (options.onFile !== undefined) return { kind: 'file', folder: options.onFile, glob: options.glob ?? '*' }
  if (options.onMail !== undefined)
    return {
      kind: 'mail',
      folder: options.onMail,
      ...(options.account ? { account: options.account } : {}),
      ...(options.from ? { from: options.from } : {}),
      ...(options.subject ? { subject: options.subject } : {}),
    }
  return { kind: 'manual' }
}

function runLine(run: AutomationRun): string {
  const denied = run.denials.length > 0 ? `, ${run.denials.length} denied` : ''
  const detail = run.error ?? run.message
  return `${run.startedAt}  ${run.status}${denied}  (${run.cause})  ${detail.split('\n')[0]?.slice(0, 160) ?? ''}${run.conversationId ? `  [conversation ${run.conversationId}]` : ''}\n`
}

/** `bureau automations list`. */
export async function runAutomationsList(
  options: AutomationsCliOptions,
  io: TextIo = processTextIo,
): Promise<void> {
  const summaries = await withService(options, io, (service) => service.summaries())
  if (options.json) {
    io.out(`${JSON.stringify(summaries, null, 2)}\n`)
    return
  }
  if (summaries.length === 0) {
    io.out('No automations (bureau automations add NAME --prompt TEXT --every "weekday at 8:00").\n')
    return
  }
  for (const { automation, nextRuns, lastRun } of summaries) {
    io.out(
      `${automation.name}  [${automation.enabled ? 'on' : 'off'}, approve ${automation.approve}]  ${describeTrigger(automation.trigger)}` +
        `${nextRuns[0] ? `  next ${nextRuns[0]}` : ''}${lastRun ? `  last ${lastRun.status}` : ''}\n`,
    )
  }
}

/** `bureau automations add NAME --prompt TEXT (--every | --cron | --on-file | --on-mail)`. */
export async function runAutomationsAdd(
  name: string,
  options: AutomationAddOptions,
  io: TextIo = processTextIo,
): Promise<void> {
  if (options.resultFile && options.resultMail)
    throw new AppError('VALIDATION_FAILED', 'Give one of --result-file and --result-mail.')
  const automation = await withService(options, io, (service) =>
    service.create({
      name,
      prompt: options.prompt,
      trigger: triggerOf(options),
      ...(options.approve ? { approve: options.approve } : {}),
      ...(options.toolsets
        ? {
            toolsets: options.toolsets
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean),
          }
        : {}),
      ...(options.resultFile ? { output: { kind: 'file', path: options.resultFile } } : {}),
      ...(options.resultMail
        ? { output: { kind: 'email', to: options.resultMail.split(',').map((a) => a.trim()) } }
        : {}),
      ...(options.skipMissed ? { missed: 'skip' } : {}),
      ...(options.maxSteps ? { maxSteps: Number(options.maxSteps) } : {}),
      ...(options.deadline ? { deadlineMinutes: Number(options.deadline) } : {}),
      enabled: !options.disabled,
    }),
  )
  if (options.json) io.out(`${JSON.stringify(automation, null, 2)}\n`)
  else io.out(`Added "${automation.name}" (${automation.id}).\n`)
}

export async function runAutomationsRemove(
  name: string,
  options: AutomationsCliOptions,
  io: TextIo = processTextIo,
) {
  const removed = await withService(options, io, (service) => service.remove(name))
  io.out(`Removed "${removed.name}".\n`)
}

export async function runAutomationsEnable(
  name: string,
  enabled: boolean,
  options: AutomationsCliOptions,
  io: TextIo = processTextIo,
) {
  const automation = await withService(options, io, (service) => service.setEnabled(name, enabled))
  io.out(`"${automation.name}" is ${automation.enabled ? 'enabled' : 'disabled'}.\n`)
}

export async function runAutomationsHistory(
  name: string,
  options: AutomationsCliOptions,
  io: TextIo = processTextIo,
) {
  const runs = await withService(options, io, (service) => service.history(name))
  if (options.json) {
    io.out(`${JSON.stringify(runs, null, 2)}\n`)
    return
  }
  if (runs.length === 0) io.out('No runs yet.\n')
  for (const run of runs) {
    io.out(runLine(run))
    for (const denial of run.denials) io.out(`    denied ${denial.call}: ${denial.reason ?? ''}\n`)
  }
}

async function withApp<T>(
  options: AutomationsCliOptions,
  task: (app: import('../../app').BureauApp) => Promise<T>,
) {
  const { createApp } = await import('../../app')
  const logger: Logger =
    process.env.BUREAU_LOG_LEVEL === 'debug' ? createLogger({ write: stderrLine }) : silentLogger
  const app = await createApp({
    host: 'web',
    dataDir: options.dataDir ?? defaultDataDir(),
    ...(options.workspace ? { workspaceDir: options.workspace } : {}),
    logger,
    noIndex: true,
    automations: 'manual',
  })
  try {
    return await task(app)
  } finally {
    await app.dispose()
  }
}

/** `bureau automations run NAME`: one run now, in the foreground, unattended as its trigger would run it. */
export async function runAutomationsRun(
  name: string,
  options: AutomationsCliOptions,
  io: TextIo = processTextIo,
) {
  const run = await withApp(options, (app) => app.automations.runNow(name))
  if (options.json) io.out(`${JSON.stringify(run, null, 2)}\n`)
  else {
    io.out(runLine(run))
    for (const denial of run.denials) io.out(`    denied ${denial.call}: ${denial.reason ?? ''}\n`)
  }
  if (run.status === 'failed' || run.status === 'interrupted') process.exitCode = 1
}

/** `bureau automations run-pending`: the schedules that are due (and missed ones), for a server without the app. */
export async function runAutomationsPending(options: AutomationsCliOptions, io: TextIo = processTextIo) {
  const runs = await withApp(options, (app) => app.automations.runPending())
  if (options.json) io.out(`${JSON.stringify(runs, null, 2)}\n`)
  else if (runs.length === 0) io.out('Nothing was due.\n')
  else for (const run of runs) io.out(runLine(run))
  if (runs.some((r) => r.status === 'failed')) process.exitCode = 1
}
