import type { Command } from 'commander'
import { dataDirOption, parsePort, parsePositiveInt, workspaceOption } from '../program'

export interface ServeOptions {
  host: string
  port: number
  dataDir?: string
  workspace?: string
  token?: string
  toolsDebounceMs?: number
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the headless host: the UI and the IPC contract over HTTP on 127.0.0.1')
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 = any free port)', parsePort, 8321)
    .addOption(dataDirOption())
    .addOption(workspaceOption())
    .option('--token <token>', 'UI token (default: a random token, printed with the URL)')
    .option(
      '--tools-debounce-ms <ms>',
      'debounce for hot-adding plugins from the tools folders',
      parsePositiveInt,
    )
    .action(async (options: ServeOptions) => {
      const { runServe } = await import('../serve/runServe')
      await runServe(options)
    })
}
