import type { PluginApi, SessionStateHandle } from '../tools'
import type { WorkbookStore } from './workbookStore'

/** The framework functions the toolset is built with (passed in: no run-time import of the tools index). */
export type SpreadsheetApi = Pick<PluginApi, 'defineToolset' | 'method' | 'sessionState'>

export type WorkbooksHandle = SessionStateHandle<WorkbookStore>
