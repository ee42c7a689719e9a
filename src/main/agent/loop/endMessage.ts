import type { AgentStep } from '../../../shared/ipc'
import type { LoopOutcome } from './agentLoop'

export interface EndMessage {
  message: string
  /** Say it to the user (it was not streamed already). */
  announce: boolean
  error?: string
}

function stepSummary(steps: readonly AgentStep[]): string {
  const finished = steps.filter((s) => s.status === 'ok')
  if (finished.length === 0) return 'No step succeeded.'
  const names = finished.slice(-10).map((s) => s.method)
  const more = finished.length > names.length ? ` (and ${finished.length - names.length} earlier)` : ''
  return `Completed steps: ${names.join(', ')}${more}.`
}

/** The message a run ends with, for every way it can end. */
export function endMessage(
  outcome: LoopOutcome,
  context: { maxIterations: number; steps: readonly AgentStep[]; text: string },
): EndMessage {
  switch (outcome.kind) {
    case 'done':
    case 'answered':
      return { message: outcome.message, announce: false }
    case 'question':
      return { message: outcome.question, announce: true }
    case 'budget':
      return {
        message: `I stopped after ${context.maxIterations} model calls without finishing: that is the step limit for one request. ${stepSummary(context.steps)} Ask me to continue if you want me to go on.`,
        announce: true,
      }
    case 'repeated_failure': {
      const error = `${outcome.failure.method} failed ${outcome.failure.count} times in a row with the same error, so I stopped instead of trying again: ${outcome.failure.error.replace(/^Error: /, '')}`
      return { message: `I stopped: ${error}`, announce: true, error }
    }
    case 'failed':
      return {
        message: `The model could not answer: ${outcome.error}`,
        announce: false,
        error: outcome.error,
      }
    case 'cancelled':
      return { message: context.text, announce: false }
  }
}
