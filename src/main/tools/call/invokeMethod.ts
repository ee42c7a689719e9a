import { AppError, type ErrorCode, isAppError } from '../../../shared/errors'
import { cliMethodName } from '../naming'
import { errorMessage } from '../sanitizeError'
import type {
  AnyToolMethod,
  ApprovalGate,
  ApprovalRequest,
  ApprovalTouch,
  ProgressUpdate,
  RegisteredMethod,
  Risk,
  ToolCall,
  ToolContext,
  ToolFailure,
  ToolFailureStage,
  ToolResult,
  ToolSession,
} from '../types'
import { cliUsage } from './cliUsage'
import { coerceArguments } from './coerceArguments'
import { describeIssues } from './describeIssues'
import { type MethodInfo, methodInfo } from './methodInfo'
import { parseArguments } from './parseArguments'

export interface InvokeOptions {
  signal?: AbortSignal
  onProgress?: (update: ProgressUpdate) => void
  /** How names and usage hints in errors are written: API function names or terminal commands. */
  style?: 'api' | 'cli'
  /** Asked after validation, before the method runs (agent runs only); a refusal is a `denied` failure. */
  approve?: ApprovalGate
}

/** The call's signal was aborted: its own class so the catch below tells it from a tool that failed. */
class Cancelled extends Error {}

const RISK_RANK: Record<Risk, number> = { read: 0, write: 1, external: 2 }

/** The risk of this call: the method's `riskOf` when it has one, capped at its declared risk. */
function callRisk(method: AnyToolMethod, args: Record<string, unknown>): Risk {
  const declared = method.risk
  if (!method.riskOf) return declared
  try {
    const risk = method.riskOf(args as never)
    return RISK_RANK[risk] !== undefined && RISK_RANK[risk] <= RISK_RANK[declared] ? risk : declared
  } catch {
    return declared
  }
}

/** A safety net: no error a model reads is longer than this. */
const MAX_ERROR = 2_000

export function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000
}

export function failure(
  started: number,
  stage: ToolFailureStage,
  code: ErrorCode,
  message: string,
  call?: ToolCall,
): ToolFailure {
  const error = message.length > MAX_ERROR ? `${message.slice(0, MAX_ERROR - 3)}...` : message
  return call
    ? { ok: false, error, code, stage, durationMs: elapsed(started), call }
    : { ok: false, error, code, stage, durationMs: elapsed(started) }
}

function title(target: RegisteredMethod, style: 'api' | 'cli'): string {
  return style === 'cli' ? `${target.toolset.name} ${cliMethodName(target.key)}` : target.name
}

function usageHint(target: RegisteredMethod, info: MethodInfo, style: 'api' | 'cli'): string {
  if (style === 'cli') {
    return `Usage: ${cliUsage(target.toolset, target.key)}\nRun \`${title(target, 'cli')} --help\` for details.`
  }
  const fields = info.params.map((p) => `${p.name}${p.required ? '' : '?'}: ${p.type}`)
  return `Parameters: {${fields.join(', ')}}`
}

function raceSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Cancelled())
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Cancelled())
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

function contextFor(
  session: ToolSession,
  target: RegisteredMethod,
  signal: AbortSignal,
  options: InvokeOptions,
  onWorkspace: (root: string) => void,
): ToolContext {
  return {
    get workspace() {
      const workspace = session.workspace
      if (!workspace) throw new AppError('UNAVAILABLE', 'No workspace folder is open; this method needs one.')
      onWorkspace(workspace.root)
      return workspace
    },
    signal,
    get log() {
      return session.logger.child(target.name)
    },
    progress: (update) => {
      try {
        options.onProgress?.(update)
      } catch {
        // A failing progress listener must not fail the tool.
      }
    },
    urlGuard: session.urlGuard,
    session,
  }
}

/** What the call touches, for the approval card; a method that cannot tell leaves it out. */
async function approvalTarget(
  target: RegisteredMethod,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ApprovalTouch[]> {
  if (!target.method.approvalTarget) return []
  try {
    return await target.method.approvalTarget(args, ctx)
  } catch (error) {
    ctx.log.warn('approval target not known', { error: String(error) })
    return []
  }
}

/** Runs a resolved method: parse, coerce, validate, run, validate the output. Never throws. */
export async function invokeResolved(
  session: ToolSession,
  target: RegisteredMethod,
  rawArgs: unknown,
  options: InvokeOptions = {},
  started = performance.now(),
): Promise<ToolResult> {
  const style = options.style ?? 'api'
  const call: ToolCall = { toolset: target.toolset.name, method: target.key, name: target.name }
  let workspaceRoot: string | undefined
  try {
    const info = methodInfo(target.method)
    const parsed = parseArguments(rawArgs, info)
    if (!parsed.ok)
      return failure(
        started,
        'arguments',
        'VALIDATION_FAILED',
        `${parsed.error}\n${usageHint(target, info, style)}`,
        call,
      )
    const coerced = coerceArguments(parsed.args, info.input)
    const validated = target.method.input.safeParse(coerced)
    if (!validated.success) {
      const message = describeIssues(
        validated.error,
        coerced,
        info,
        title(target, style),
        usageHint(target, info, style),
      )
      return failure(started, 'arguments', 'VALIDATION_FAILED', message, call)
    }
    let args = validated.data as Record<string, unknown>
    call.args = args
    if (session.disposed)
      return failure(started, 'session', 'UNAVAILABLE', 'This tool session has ended.', call)
    const signal = options.signal ? AbortSignal.any([options.signal, session.signal]) : session.signal
    const ctx = contextFor(session, target, signal, options, (root) => {
      workspaceRoot = root
    })
    if (options.approve) {
      const request: ApprovalRequest = {
        toolset: call.toolset,
        method: call.method,
        name: call.name,
        risk: callRisk(target.method, args),
        args,
      }
      const touches = await approvalTarget(target, args, ctx)
      if (touches.length > 0) request.target = touches
      const verdict = await raceSignal(options.approve(request, signal), signal)
      call.approval = {
        outcome: verdict.allowed ? 'allowed' : 'denied',
        by: verdict.by ?? 'policy',
        risk: request.risk,
      }
      if (!verdict.allowed) return failure(started, 'denied', 'FORBIDDEN', verdict.reason, call)
      if (verdict.args) {
        const revised = target.method.input.safeParse(verdict.args)
        if (!revised.success) {
          const message = `The changed arguments are not valid: ${revised.error.issues[0]?.message ?? 'invalid'}.`
          return failure(started, 'arguments', 'VALIDATION_FAILED', message, call)
        }
        args = revised.data as Record<string, unknown>
        call.args = args
      }
    }
    const output = await raceSignal(
      Promise.resolve().then(() => target.method.run(args, ctx)),
      signal,
    )
    const checked = target.method.output.safeParse(output)
    if (!checked.success) {
      const first = checked.error.issues[0]
      const where = first?.path.length ? ` at ${first.path.join('.')}` : ''
      session.logger.error('tool output did not match its schema', {
        method: target.name,
        issues: checked.error.issues.slice(0, 3),
      })
      return failure(
        started,
        'output',
        'INTERNAL',
        `${title(target, style)} returned a malformed result${where} (${first?.message ?? 'invalid'}). This is a bug in the tool, not in your arguments.`,
        call,
      )
    }
    return { ok: true, value: checked.data, durationMs: elapsed(started), call }
  } catch (error) {
    if (
      error instanceof Cancelled ||
      ((options.signal?.aborted || session.signal.aborted) && !isAppError(error))
    ) {
      return failure(started, 'cancelled', 'CANCELLED', `${title(target, style)} was cancelled.`, call)
    }
    const code: ErrorCode = isAppError(error) ? error.code : 'HANDLER_FAILED'
    if (!isAppError(error)) session.logger.warn('tool failed', { method: target.name, error: String(error) })
    return failure(
      started,
      'run',
      code,
      `${title(target, style)} failed: ${errorMessage(error, workspaceRoot)}`,
      call,
    )
  }
}
