// Public API of the eval harness (`bureau eval`): task suite, runner, report, stored scores.

export type { EvalEnvironment, EvalModel } from './environment'
export { evalHandlers, saveLastResult } from './lastResults'
export {
  defaultOfficeBenchDir,
  formatPaperTable,
  isOfficeBenchDir,
  loadOfficeBench,
  type OfficeBenchSet,
} from './officebench'
export { formatReport } from './report'
export type { EvalReport, RunMode } from './results'
export { type EvalProgress, runEval } from './runSuite'
export { loadTaskSet, shippedEvalDir, type TaskSet } from './suite'
