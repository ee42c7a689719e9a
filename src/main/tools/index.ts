export {
  buildApiTools,
  buildCliTool,
  cliCommandPrefixes,
  type FunctionTool,
  getCatalog,
  type ToolCatalog,
  toolsetIndex,
} from './catalog'
export { defineToolset, isToolset, method } from './defineToolset'
export { withFastCheck } from './fastCheck'
export { CLI_TOOL_NAME, type InvokeOptions, invoke } from './invoke'
export { lazyLibrary } from './lazyLibrary'
export { apiToolName, toSnakeCase } from './naming'
export { type PluginApi, type PluginFactory, pluginApi } from './pluginApi'
export {
  createPluginLoader,
  type PluginLoader,
  type PluginLoaderOptions,
  type PluginReport,
} from './pluginLoader'
export { createToolRegistry, registryOf, type ToolsetSource, toolsetList } from './registry'
export { resolveMethod } from './resolveMethod'
export { redactHostPaths } from './sanitizeError'
export { sessionState } from './sessionState'
export { pluginDirs, shippedToolsDir } from './shippedToolsDir'
export { didYouMean } from './suggest'
export { runTerminalArgv, runTerminalCommand } from './terminal'
export { createToolSession, type ToolSessionOptions } from './toolSession'
export {
  type AddToolsetResult,
  type AnyToolMethod,
  type ApprovalBy,
  type ApprovalGate,
  type ApprovalRecord,
  type ApprovalRequest,
  type ApprovalTouch,
  type ApprovalVerdict,
  type FlushFailure,
  type InputSchema,
  isUsageFailure,
  type MethodExample,
  type MethodSpec,
  type OpenSignals,
  type OutputSchema,
  type ProgressUpdate,
  type RegisteredMethod,
  type Risk,
  type SessionDisposeReport,
  type SessionStateHandle,
  type ToolCall,
  type ToolContext,
  type ToolFailure,
  type ToolFailureStage,
  type ToolMethod,
  type ToolRegistry,
  type ToolResult,
  type ToolSession,
  type ToolSuccess,
  type Toolset,
  type ToolsetSpec,
} from './types'
export { defuseMarkers, type FrameOptions, frameUntrusted, type UntrustedKind } from './untrustedContent'
export { createUrlGuard, type UrlGuard, type UrlGuardOptions } from './urlGuard'
export { lazyWorkspace, type WorkspaceSource } from './workspaceSource'
