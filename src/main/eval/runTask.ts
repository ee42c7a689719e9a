import { join } from 'node:path'
import { type AgentResult, INBOX_DIR, runAgent } from '../agent'
import { loadEmailToolset } from '../email'
import type { Logger } from '../platform'
import { createToolSession, invoke, type Toolset, type UrlGuard } from '../tools'
import { type CheckContext, runChecks } from './checks'
import type { EvalEnvironment } from './environment'
import { evalApprovalGate } from './evalApprovals'
import type { EvalMail, TaskMailbox } from './mail/taskMail'
import { startTaskMcp, type TaskMcp } from './mcp/taskMcp'
import type { RunMode, TaskRun } from './results'
import type { TestSite } from './siteServer'
import type { EvalTask, ToolCallSpec } from './taskSchema'
import { prepareTaskWorkspace, type TaskWorkspace } from './taskWorkspace'
import { fillTemplate, resolveRefs } from './template'

const MAX_ERRORS_SHOWN = 5

export interface RunTaskOptions {
  env: EvalEnvironment
  site: TestSite
  fixturesDir: string
  tempRoot: string
  urlGuard: UrlGuard
  /** The run's mail server, started by the first e-mail task (throws when Dovecot is missing). */
  mail: () => Promise<EvalMail>
  mode: RunMode
  attempt: number
  /** Ends the attempt (Ctrl+C, or the per-task time limit). */
  signal: AbortSignal
  logger?: Logger
}

interface Outcome {
  answer: string
  status: TaskRun['status']
  steps: number
  tokens: TaskRun['tokens']
  errors: string[]
  /** Why the agent ended before it answered (added to a failed task's reason). */
  stopped?: string
}

/** How an agent run that did not finish ended, in the words of the report. */
function stoppedBecause(result: AgentResult): string | undefined {
  if (result.status === 'budget') return 'the agent used up its step budget'
  if (result.status === 'repeated_failure') return 'the agent stopped after the same tool error three times'
  if (result.status === 'failed') return `the model failed: ${oneLine(result.error ?? result.message)}`
  return undefined
}

/** Replays tool calls through `invoke` (the agent's pipeline) with no model; `done` gives the answer. */
async function replay(
  calls: readonly ToolCallSpec[],
  ws: TaskWorkspace,
  toolsets: readonly Toolset[],
  o: RunTaskOptions,
): Promise<Outcome> {
  for (const file of ws.attachments) await ws.workspace.writeFile(`${INBOX_DIR}/${file.name}`, file.bytes)
  const session = createToolSession({
    toolsets,
    workspace: ws.workspace,
    urlGuard: o.urlGuard,
  })
  const errors: string[] = []
  const values: unknown[] = []
  let answer = ''
  const approve = evalApprovalGate()
  try {
    for (const call of calls) {
      if (o.signal.aborted) break
      if (call.tool === 'done') {
        answer = String(call.args.message ?? '')
        values.push(undefined)
        continue
      }
      // Through the eval's approval gate, as the agent's calls go: a replay proves the gate lets it run.
      const result = await invoke(session, call.tool, resolveRefs(call.args, values), {
        signal: o.signal,
        approve,
      })
      values.push(result.ok ? result.value : undefined)
      if (!result.ok) errors.push(`${call.tool}: ${result.error}`)
    }
  } finally {
    const report = await session.dispose()
    errors.push(...report.errors)
  }
  return {
    answer,
    status: 'replayed',
    steps: calls.length,
    tokens: { input: 0, output: 0, cached: 0 },
    errors,
  }
}

async function agent(
  task: EvalTask,
  ws: TaskWorkspace,
  toolsets: readonly Toolset[],
  o: RunTaskOptions,
): Promise<Outcome> {
  const model = await o.env.openModel()
  const result: AgentResult = await runAgent({
    prompt: task.prompt,
    model: model.client,
    toolsets,
    attachments: ws.attachments,
    maxIterations: task.stepBudget,
    signal: o.signal,
    workspace: ws.workspace,
    converter: o.env.converter,
    attachmentBudgetChars: o.env.attachmentBudgetChars,
    interactionMode: model.interactionMode,
    urlGuard: o.urlGuard,
    approve: evalApprovalGate(),
    ...(o.logger ? { logger: o.logger } : {}),
  })
  const errors = result.steps
    .filter((s) => s.status === 'error')
    .map((s) => `${s.method}: ${s.error ?? 'failed'}`)
  if (result.error) errors.push(`agent: ${result.error}`)
  const stopped = stoppedBecause(result)
  return {
    answer: result.message,
    status: result.status,
    steps: result.steps.length,
    tokens: {
      input: result.usage.inputTokens,
      output: result.usage.outputTokens,
      cached: result.usage.cachedInputTokens,
    },
    errors,
    ...(stopped ? { stopped } : {}),
  }
}

/**
 * The toolsets of an attempt: the environment's without the user's own mail accounts (an eval never
 * reads or sends the user's mail); an e-mail task gets the `email` toolset of its own mailbox.
 */
async function attemptToolsets(
  env: EvalEnvironment,
  mailbox: TaskMailbox | undefined,
  mcp: TaskMcp | undefined,
): Promise<Toolset[]> {
  const own = new Set(mcp?.toolsets.map((t) => t.name))
  const toolsets = env.toolsets().filter((t) => t.name !== 'email' && !own.has(t.name))
  if (mailbox) toolsets.push(await loadEmailToolset(mailbox.env))
  return [...toolsets, ...(mcp?.toolsets ?? [])]
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'failed'
}

function reasonOf(verdict: { ok: boolean; reason: string }, outcome: Outcome): string {
  return !verdict.ok && outcome.stopped ? `${verdict.reason}; ${outcome.stopped}` : verdict.reason
}

/** One attempt at a task in a fresh workspace: setup, the run (agent or replay), then the checks. Never throws. */
export async function runTask(raw: EvalTask, o: RunTaskOptions): Promise<TaskRun> {
  const task = fillTemplate(raw, { site: o.site.origin })
  const base = {
    id: task.id,
    title: task.title,
    kind: task.kind,
    difficulty: task.difficulty,
    toolsets: task.toolsets,
    attempt: o.attempt,
    stepBudget: task.stepBudget,
    ...(task.apps ? { apps: task.apps } : {}),
    ...(task.cannotPass ? { cannotPass: task.cannotPass } : {}),
  }
  const started = performance.now()
  let ws: TaskWorkspace | undefined
  let mcp: TaskMcp | undefined
  let setupMs = 0
  try {
    o.site.take()
    const mailbox =
      task.mailbox.length > 0 || task.mail
        ? await (await o.mail()).mailbox(o.fixturesDir, task.mailbox, task.mail, task.mailAddress)
        : undefined
    if (task.mcp.length > 0) mcp = await startTaskMcp(o.tempRoot, o.fixturesDir, task.mcp)
    const toolsets = await attemptToolsets(o.env, mailbox, mcp)
    ws = await prepareTaskWorkspace(task.id, {
      tempRoot: o.tempRoot,
      fixturesDir: o.fixturesDir,
      files: task.workspace,
      ...(task.files ? { held: task.files } : {}),
      attachments: task.attachments,
      setup: task.setup,
      env: o.env,
      toolsets,
      urlGuard: o.urlGuard,
    })
    setupMs = performance.now() - started
    const outcome =
      o.mode === 'agent'
        ? await agent(task, ws, toolsets, o)
        : await replay(o.mode === 'reference' ? task.reference : task.wrong.calls, ws, toolsets, o)
    const checkStarted = performance.now()
    const ctx: CheckContext = {
      root: ws.root,
      answer: outcome.answer,
      submissions: o.site.take(),
      reader: o.env.converter,
      maildir: mailbox?.maildir,
      mcpJournal: mcp?.journal,
    }
    const checked = await runChecks(task.checks, ctx)
    // The checks that could be translated may hold, but the task's own checks as a whole cannot.
    const verdict = task.cannotPass
      ? { ok: false, reason: `${checked.reason}; its own checks cannot pass: ${task.cannotPass}` }
      : checked
    const checkMs = performance.now() - checkStarted
    const cancelled = o.signal.aborted
    return {
      ...base,
      passed: verdict.ok && !cancelled,
      reason: cancelled ? `stopped (${oneLine(o.signal.reason)})` : reasonOf(verdict, outcome),
      status: cancelled && outcome.status === 'replayed' ? 'cancelled' : outcome.status,
      steps: outcome.steps,
      tokens: outcome.tokens,
      wallMs: performance.now() - started,
      toolErrors: outcome.errors.length,
      errors: outcome.errors.slice(0, MAX_ERRORS_SHOWN),
      setupMs,
      checkMs,
    }
  } catch (error) {
    return {
      ...base,
      passed: false,
      reason: `harness error: ${oneLine(error)}`,
      status: 'error',
      steps: 0,
      tokens: { input: 0, output: 0, cached: 0 },
      wallMs: performance.now() - started,
      toolErrors: 0,
      errors: [],
      setupMs,
      checkMs: 0,
    }
  } finally {
    await ws?.dispose().catch(() => {})
    await mcp?.close().catch(() => {})
  }
}

export const fixturesDirOf = (evalDir: string) => join(evalDir, 'fixtures')
