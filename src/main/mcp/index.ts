export { importServers, type McpServerConfig, parseMcpServers } from './config'
export { MCP_FILE, type McpSettingsPort } from './loadServers'
export { importIntoSettings, mcpHandlers } from './mcpHandlers'
export { createMcpHost, type McpHost, type McpHostOptions } from './mcpHost'
