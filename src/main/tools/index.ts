export { CLI_TOOL_NAME, type InvokeOptions, invoke } from './call/invoke'
export { resolveMethod } from './call/resolveMethod'
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
export { lazyLibrary } from './lazyLibrary'
export { apiToolName, toSnakeCase } from './naming'
export { createUrlGuard, type UrlGuard, type UrlGuardOptions } from './net/urlGuard'
export { type PluginApi, type PluginFactory, pluginApi } from './plugins/pluginApi'
export {
  createPluginLoader,
  type PluginLoader,
  type PluginLoaderOptions,
  type PluginReport,
} from './plugins/pluginLoader'
export { pluginDirs, shippedToolsDir } from './plugins/shippedToolsDir'
export { createToolRegistry, registryOf, type ToolsetSource, toolsetList } from './registry'
export { redactHostPaths } from './sanitizeError'
export { withFastCheck } from './schema/fastCheck'
export { sessionState } from './sessionState'
export { didYouMean } from './suggest'
export { runTerminalArgv, runTerminalCommand } from './terminal/terminal'
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
  type ToolOrigin,
  type ToolRegistry,
  type ToolResult,
  type ToolSession,
  type ToolSuccess,
  type Toolset,
  type ToolsetSpec,
} from './types'
export { defuseMarkers, type FrameOptions, frameUntrusted, type UntrustedKind } from './untrustedContent'
export { lazyWorkspace, type WorkspaceSource } from './workspaceSource'
