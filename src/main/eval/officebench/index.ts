// OfficeBench (Wang et al., 2024) as a `bureau eval --suite`: its data read at run time, its checks
// translated onto the eval's check types, its report in the paper's layout.

export {
  defaultOfficeBenchDir,
  isOfficeBenchDir,
  loadOfficeBench,
  OFFICEBENCH_STEP_BUDGET,
  type OfficeBenchSet,
} from './loadSuite'
export { formatPaperTable, PUBLISHED } from './paperReport'
export { translateEvaluation } from './translate'
