export { filterMethods } from './methods'
export { applyFilters, filterProblems, type SheetFilter } from './package'
