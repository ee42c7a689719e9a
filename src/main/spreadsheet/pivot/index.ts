export { pivotMethods } from './methods'
export { pivotProblems } from './package'
export { describePivot, pivotsInSheet } from './read'
