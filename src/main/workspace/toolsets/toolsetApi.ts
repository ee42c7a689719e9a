import type { PluginApi } from '../../tools'

/** The two framework functions the workspace toolsets are built with. */
export type ToolsetApi = Pick<PluginApi, 'defineToolset' | 'method'>
