import type { AgentStatus } from '../agent'
import type { Difficulty } from './taskSchema'

export type RunMode = 'agent' | 'reference' | 'wrong'

export interface TokenCounts {
  input: number
  output: number
  cached: number
}

/** One attempt at one task. */
export interface TaskRun {
  id: string
  title: string
  kind: string
  difficulty: Difficulty
  toolsets: string[]
  attempt: number
  passed: boolean
  /** The checker's reason (or why the run could not be checked). */
  reason: string
  /** How the agent ended (`reference` / `wrong` for replays, `error` when the harness failed). */
  status: AgentStatus | 'replayed' | 'error'
  steps: number
  stepBudget: number
  tokens: TokenCounts
  wallMs: number
  toolErrors: number
  /** The first few tool errors, one line each. */
  errors: string[]
  /** The number of applications of a third-party task (OfficeBench's tiers). */
  apps?: number
  /** Why the task's own checks can never pass: reported, but scored apart. */
  cannotPass?: string
  /** Harness overhead: workspace setup, and the checker. */
  setupMs: number
  checkMs: number
}

export interface Tally {
  passed: number
  total: number
}

export interface EvalTotals {
  all: Tally
  byDifficulty: Record<string, Tally>
  byToolset: Record<string, Tally>
  /** Tasks whose own checks cannot pass (a third-party suite's faults), outside `all`. */
  apart: Tally
  tokens: TokenCounts
  wallMs: number
  toolErrors: number
}

export interface EvalReport {
  mode: RunMode
  provider?: string
  model?: string
  interactionMode?: string
  taskSet: { version: string; digest: string; tasks: number }
  startedAt: string
  finishedAt: string
  /** Ctrl+C (or a signal) stopped the run; runs holds what finished. */
  interrupted: boolean
  repeat: number
  runs: TaskRun[]
  totals: EvalTotals
}
