// Public API of the eval harness (`bureau eval`): task suite, runner, report, stored scores.

export type { EvalEnvironment, EvalModel } from './environment'
export { evalHandlers, lastResultsPath, readLastResults, saveLastResult } from './lastResults'
export { formatReport, totalsOf } from './report'
export type { EvalReport, EvalTotals, RunMode, Tally, TaskRun, TokenCounts } from './results'
export { type EvalProgress, type RunEvalOptions, runEval } from './runSuite'
export { loadTaskSet, shippedEvalDir, type TaskSet } from './suite'
export { type Difficulty, type EvalTask, TaskManifest, type ToolCallSpec } from './taskSchema'
