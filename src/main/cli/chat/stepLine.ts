import type { AgentStep } from '../../../shared/ipc'

const MAX_ARGS = 160

function argsText(args: unknown): string {
  const text = JSON.stringify(args) ?? ''
  if (text === '{}' || text === '') return ''
  return ` ${text.length > MAX_ARGS ? `${text.slice(0, MAX_ARGS - 1)}…` : text}`
}

/** One stderr line per finished step: `✓ files.write_text {"path":"/a.txt"} (12 ms)`. */
export function stepLine(step: AgentStep): string {
  const mark = step.status === 'ok' ? '✓' : step.status === 'cancelled' ? '-' : '✗'
  const who = step.subagent ? `[${step.subagent}] ` : ''
  const ms = step.durationMs !== undefined ? ` (${Math.round(step.durationMs)} ms)` : ''
  const error = step.error ? `: ${step.error.split('\n')[0]}` : ''
  return `${mark} ${who}${step.method}${argsText(step.args)}${ms}${error}`
}
