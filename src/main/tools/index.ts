export { type BuiltinToolsetOptions, loadBuiltinToolsets } from './builtinToolsets'
export {
  buildApiTools,
  buildCliTool,
  buildManual,
  type FunctionTool,
  getCatalog,
  type ToolCatalog,
} from './catalog'
export {
  type AnyToolMethod,
  defineToolset,
  type InputSchema,
  isToolset,
  type MethodExample,
  type MethodSpec,
  method,
  type OutputSchema,
  type ToolMethod,
  type Toolset,
  type ToolsetSpec,
} from './defineToolset'
export {
  CLI_MODE_CONTEXT_LIMIT,
  type InteractionMode,
  type InteractionModeInput,
  selectInteractionMode,
} from './interactionMode'
export { CLI_TOOL_NAME, type InvokeOptions, invoke } from './invoke'
export { apiToolName, toSnakeCase } from './naming'
export { type PluginApi, type PluginFactory, pluginApi } from './pluginApi'
export {
  createPluginLoader,
  type PluginLoader,
  type PluginLoaderOptions,
  type PluginReport,
} from './pluginLoader'
export {
  type AddToolsetResult,
  createToolRegistry,
  type RegisteredMethod,
  type ToolRegistry,
} from './registry'
export { resolveMethod } from './resolveMethod'
export { type FlushFailure, type SessionStateHandle, sessionState } from './sessionState'
export { pluginDirs, shippedToolsDir } from './shippedToolsDir'
export { runTerminalArgv, runTerminalCommand } from './terminal'
export {
  createToolSession,
  type SessionDisposeReport,
  type ToolSession,
  type ToolSessionOptions,
} from './toolSession'
export { createToolsHost, type ToolsHost, type ToolsHostOptions, toolsHandlers } from './toolsHost'
export {
  isUsageFailure,
  type ProgressUpdate,
  type Risk,
  type ToolCall,
  type ToolContext,
  type ToolFailure,
  type ToolFailureStage,
  type ToolResult,
  type ToolSuccess,
} from './types'
export { createUrlGuard, type UrlGuard, type UrlGuardOptions } from './urlGuard'
export type { Workspace } from './workspaceType'
