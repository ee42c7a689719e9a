export { type BuiltinToolsetOptions, loadBuiltinToolsets } from './builtinToolsets'
export { createToolsHost, type ToolsHost, type ToolsHostOptions, toolsHandlers } from './toolsHost'
