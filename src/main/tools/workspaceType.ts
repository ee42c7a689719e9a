export type { Workspace } from '../workspace'
