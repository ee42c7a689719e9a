import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { AppError } from '../../../shared/errors'
import {
  type AgentAttachment,
  type AgentEvent,
  type AgentResult,
  createApprovalGate,
  runAgent,
} from '../../agent'
import { Anonymizer } from '../../llm'
import { createLogger, defaultDataDir } from '../../platform'
import type { Toolset } from '../../tools'
import { openCliToolEnvironment } from '../cliToolEnvironment'
import type { ChatCliOptions } from '../commandOptions'
import { onInterrupt } from '../interrupt'
import { UsageError } from '../program'
import { noticePrinter, processTextIo, stderrLine, type TextIo } from '../textIo'
import { stepLine } from './stepLine'

function pick(all: readonly Toolset[], names: readonly string[], flag: string): Toolset[] {
  const unknown = names.filter((name) => !all.some((t) => t.name === name))
  if (unknown.length > 0)
    throw new UsageError(
      `unknown ${flag} ${unknown.join(', ')} (available: ${all.map((t) => t.name).join(', ')})`,
    )
  return all.filter((t) => names.includes(t.name))
}

async function readAttachments(paths: readonly string[]): Promise<AgentAttachment[]> {
  const files: AgentAttachment[] = []
  for (const path of paths) {
    try {
      files.push({ name: basename(path), bytes: new Uint8Array(await readFile(path)) })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable'
      throw new UsageError(`cannot read --attach ${basename(path)} (${code})`)
    }
  }
  return files
}

function printer(io: TextIo, json: boolean) {
  let last = '\n'
  return {
    onEvent(event: AgentEvent) {
      if (event.type === 'text') {
        if (json || !event.text) return
        io.out(event.text)
        last = event.text.at(-1) ?? last
      } else if (event.type === 'step' && event.phase === 'finished') io.err(`${stepLine(event.step)}\n`)
      else if (event.type === 'question') io.err(`? ${event.toolset} sub-agent asks: ${event.question}\n`)
      else if (event.type === 'notice') io.err(`notice: ${event.message}\n`)
    },
    end(result: AgentResult) {
      if (json) {
        const { text: _text, ...rest } = result
        io.out(`${JSON.stringify(rest, null, 2)}\n`)
        return
      }
      if (last !== '\n') io.out('\n')
      if (result.attachments.length > 0) io.out(`\nFiles:\n${result.attachments.join('\n')}\n`)
    },
  }
}

/**
 * `bureau chat "prompt"`: one agent run with the active provider (settings and BUREAU_* overrides),
 * the built-in and plugin toolsets, and the workspace. Exit 1 when the model or a tool failed for good.
 */
export async function runChat(
  prompt: string,
  options: ChatCliOptions,
  io: TextIo = processTextIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const logger = createLogger({
    level: env.BUREAU_LOG_LEVEL === 'debug' ? 'debug' : 'warn',
    write: stderrLine,
  })
  const dataDir = options.dataDir ?? defaultDataDir(env)
  const notify = noticePrinter(io)
  const environment = await openCliToolEnvironment({
    dataDir,
    ...(options.workspace ? { workspace: options.workspace } : {}),
    browser: options,
    logger,
    notify,
    env,
    mcp: true,
    lifetime: 'command',
  })
  const { settings } = environment
  const providers = await environment.providers()

  const all = environment.registry.list()
  const toolsets = options.toolset.length > 0 ? pick(all, options.toolset, '--toolset') : all
  const subagents = pick(all, options.subagent, '--subagent')
  const attachments = await readAttachments(options.attach)

  const configured = settings.get().anonymization
  const terms = [...(configured.enabled ? configured.terms : []), ...options.anonymize]
  const workspace = environment.workspace()
  const controller = new AbortController()
  const stop = () => controller.abort()
  const release = onInterrupt(stop, ['SIGINT'])
  const out = printer(io, options.json === true)
  let result: AgentResult
  try {
    result = await runAgent({
      prompt,
      model: await providers.client(),
      toolsets,
      subagents,
      attachments,
      maxIterations: options.maxIterations ?? settings.get().agent.maxIterations,
      clock: {
        timeZone: settings.get().calendar.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
      signal: controller.signal,
      onEvent: out.onEvent,
      workspace,
      // Nobody can be asked here: an `ask` of the approval settings becomes the --approve level.
      approve: createApprovalGate({
        settings: () => settings.get().approvals,
        granted: new Set(),
        autoApprove: options.approve ?? settings.get().approvals.nonInteractive,
      }),
      // The same converter as the convert toolset: one cache, one OCR worker, one vision choice.
      converter: environment.converter,
      attachmentBudgetChars: settings.get().attachments.budgetChars,
      interactionMode: options.interactionMode ?? (await providers.interactionMode()),
      ...(terms.length > 0 ? { anonymizer: new Anonymizer(terms) } : {}),
      logger,
    })
  } finally {
    release()
    await environment.close()
  }
  out.end(result)
  if (result.status === 'failed' || result.status === 'repeated_failure')
    throw new AppError('HANDLER_FAILED', result.error ?? result.message)
  if (result.status === 'cancelled') throw new AppError('CANCELLED', 'Cancelled.')
}
