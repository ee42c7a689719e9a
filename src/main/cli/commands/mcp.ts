import type { Command } from 'commander'
import { addBrowserOptions } from '../browserOptions'
import type { McpCliOptions } from '../commandOptions'
import { dataDirOption, workspaceOption } from '../program'

export function registerMcpCommand(program: Command): void {
  const command = program
    .command('mcp')
    .description(
      "serve Bureau's toolsets to another MCP client over stdio (same workspace sandbox, URL guard and receipts)",
    )
    .addOption(workspaceOption())
    .addOption(dataDirOption())
    .option('--toolsets <names>', 'comma-separated toolsets to offer (default: all built-ins and plugins)')
    .addHelpText(
      'after',
      '\nAdd to a client\'s config, e.g.: {"mcpServers": {"bureau": {"command": "bureau", "args": ["mcp", "--workspace", "/path/to/folder"]}}}\nSee docs/mcp.md.',
    )
  addBrowserOptions(command)
  command.action(async (options: McpCliOptions) => {
    const { serveMcp } = await import('../mcp/serveMcp')
    await serveMcp(options)
  })
}
