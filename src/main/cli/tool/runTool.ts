import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import { AppError } from '../../../shared/errors'
import { createLogger, defaultDataDir } from '../../platform'
import {
  createToolSession,
  isUsageFailure,
  runTerminalArgv,
  runTerminalCommand,
  type SessionDisposeReport,
  type ToolResult,
  type ToolSession,
} from '../../tools'
import { openCliToolEnvironment } from '../cliToolEnvironment'
import type { ToolOptions } from '../commandOptions'
import { UsageError } from '../program'
import { cliStreams, noticePrinter, processTextIo, stderrLine } from '../textIo'

export interface ToolIo {
  stdin: Readable
  stdout: Writable
}

function sessionLine(result: ToolResult): string {
  return JSON.stringify(result.ok ? { ok: true, value: result.value } : { ok: false, error: result.error })
}

/** Reads commands line by line in one session; prints one JSON line each. Returns how many failed. */
async function runStdinSession(
  session: ToolSession,
  io: ToolIo,
  signal: AbortSignal,
): Promise<{ total: number; failed: number }> {
  let total = 0
  let failed = 0
  const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY })
  signal.addEventListener('abort', () => lines.close(), { once: true })
  for await (const line of lines) {
    const command = line.trim()
    if (command === '' || command.startsWith('#')) continue
    const result = await runTerminalCommand(session, command, { signal })
    total++
    if (!result.ok) failed++
    io.stdout.write(`${sessionLine(result)}\n`)
  }
  return { total, failed }
}

/**
 * `bureau tool`: one command (exit 0, 1 on a tool error, 2 on a usage error) or, with no command
 * or `-`, a stdin session. Toolsets are disposed at the end either way (pending changes saved).
 */
export async function runTool(
  words: string[],
  options: ToolOptions,
  io: ToolIo = { stdin: cliStreams().stdin, stdout: cliStreams().stdout },
): Promise<void> {
  const logger = createLogger({
    level: process.env.BUREAU_LOG_LEVEL === 'debug' ? 'debug' : 'warn',
    write: stderrLine,
  })
  const stdinMode = words.length === 0 || (words.length === 1 && words[0] === '-')
  const environment = await openCliToolEnvironment({
    lifetime: stdinMode ? 'session' : 'command',
    dataDir: options.dataDir ?? defaultDataDir(),
    ...(options.workspace ? { workspace: options.workspace } : {}),
    browser: options,
    logger,
    notify: noticePrinter(processTextIo),
  })
  const session = createToolSession({
    toolsets: environment.registry,
    workspace: environment.workspace,
    logger,
  })

  // Ctrl-C stops the running command and the reading, and still disposes the session (saves pending work).
  const interrupt = new AbortController()
  const stop = () => interrupt.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  let outcome: ToolResult | { total: number; failed: number }
  let disposal: SessionDisposeReport = { errors: [] }
  try {
    if (stdinMode) outcome = await runStdinSession(session, io, interrupt.signal)
    else {
      outcome = await runTerminalArgv(session, words, { signal: interrupt.signal })
      if (outcome.ok) {
        const text = outcome.help ? String(outcome.value) : JSON.stringify(outcome.value, null, 2)
        io.stdout.write(`${text}\n`)
      }
    }
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    disposal = await session.dispose()
    await environment.close()
  }
  if (disposal.errors.length > 0) {
    throw new AppError('HANDLER_FAILED', `Could not finish the session: ${disposal.errors.join('; ')}`)
  }
  if (interrupt.signal.aborted) {
    throw new AppError('CANCELLED', 'Interrupted; the session was closed and pending changes were saved.')
  }
  if ('total' in outcome) {
    if (outcome.failed > 0)
      throw new AppError('HANDLER_FAILED', `${outcome.failed} of ${outcome.total} commands failed`)
    return
  }
  if (!outcome.ok) {
    if (isUsageFailure(outcome)) throw new UsageError(outcome.error)
    throw new AppError(outcome.code, outcome.error)
  }
}
