import { randomUUID } from 'node:crypto'
import type { AgentStep } from '../../../shared/ipc'
import { resolveMethod, type ToolResult, type ToolSession, toSnakeCase } from '../../tools'

const MAX_STORED_RESULT = 8_000

/** `files.write_text` for a method the registry knows; the raw name (or `cli <toolset> <method>`) otherwise. */
export function displayMethod(session: ToolSession, name: string, args: unknown): string {
  if (name.trim().toLowerCase() === 'cli') {
    const command =
      typeof args === 'object' && args && 'command' in args ? String(args.command) : String(args)
    const [toolset, method] = command.trim().split(/\s+/)
    const resolved = toolset && method ? resolveMethod(session.registry, `${toolset}.${method}`) : undefined
    return resolved?.ok ? `${resolved.target.toolset.name}.${toSnakeCase(resolved.target.key)}` : 'cli'
  }
  const resolved = resolveMethod(session.registry, name)
  return resolved.ok ? `${resolved.target.toolset.name}.${toSnakeCase(resolved.target.key)}` : name
}

/** What a step keeps of a result: small values as they are, big ones as a marked preview. */
export function storedResult(value: unknown): unknown {
  if (value === undefined) return undefined
  const json = JSON.stringify(value)
  if (json === undefined || json.length <= MAX_STORED_RESULT) return value
  return `${json.slice(0, MAX_STORED_RESULT)}… [${json.length - MAX_STORED_RESULT} more characters]`
}

export function startStep(method: string, args: unknown, subagent?: string): AgentStep {
  return {
    id: randomUUID(),
    method,
    args: args ?? {},
    status: 'running',
    startedAt: new Date().toISOString(),
    ...(subagent ? { subagent } : {}),
  }
}

export function finishStep(
  step: AgentStep,
  outcome: { ok: true; value: unknown } | { ok: false; error: string; cancelled?: boolean },
  durationMs: number,
): AgentStep {
  const done: AgentStep = { ...step, durationMs: Math.max(0, Math.round(durationMs * 10) / 10) }
  if (outcome.ok) {
    done.status = 'ok'
    const result = storedResult(outcome.value)
    if (result !== undefined) done.result = result
  } else {
    done.status = outcome.cancelled ? 'cancelled' : 'error'
    done.error = outcome.error
  }
  return done
}

/** Refines the started step with what the tools pipeline resolved (canonical method, validated args). */
export function withCall(step: AgentStep, result: ToolResult): AgentStep {
  if (!result.call) return step
  const approval = result.call.approval
  const recorded =
    approval && (approval.outcome === 'denied' || approval.by !== 'policy' || approval.risk !== 'read')
  return {
    ...step,
    method: `${result.call.toolset}.${toSnakeCase(result.call.method)}`,
    ...(result.call.args ? { args: result.call.args } : {}),
    ...(recorded ? { approval: { outcome: approval.outcome, by: approval.by } } : {}),
  }
}
