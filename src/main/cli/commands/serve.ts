import type { Command } from 'commander'
import { addBrowserOptions } from '../browserOptions'
import type { ServeOptions } from '../commandOptions'
import {
  addProviderOptions,
  applyProviderFlags,
  dataDirOption,
  parsePort,
  parsePositiveInt,
  workspaceOption,
} from '../program'

export function registerServeCommand(program: Command): void {
  const command = program
    .command('serve')
    .description('run the headless host: the UI and the IPC contract over HTTP on 127.0.0.1')
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 = any free port)', parsePort, 8321)
    .addOption(dataDirOption())
    .addOption(workspaceOption())
    .option('--token <token>', 'UI token (default: a random token, printed with the URL)')
    .option(
      '--tools-debounce-ms <ms>',
      'debounce for hot-adding plugins from the tools folders (default: setting tools.watchDebounceMs; at least 60)',
      parsePositiveInt,
    )
    .option(
      '--bridge-max-concurrent <n>',
      'OpenAI bridge (/v1): agent runs at once (default: setting bridge.maxConcurrent, 4)',
      parsePositiveInt,
    )
    .option(
      '--bridge-max-queued <n>',
      'OpenAI bridge: requests waiting for a slot before 429 (default: bridge.maxQueued, 32)',
      parsePositiveInt,
    )
    .option(
      '--bridge-max-request-bytes <n>',
      'OpenAI bridge: largest JSON request body, 413 above (default: bridge.maxRequestBytes, 16 MiB)',
      parsePositiveInt,
    )
    .option(
      '--bridge-max-file-bytes <n>',
      'OpenAI bridge: largest uploaded file, 413 above (default: bridge.maxFileBytes, 64 MiB)',
      parsePositiveInt,
    )
  command.option(
    '--no-index',
    'do not index the workspace in the background this run (setting knowledge.enabled)',
  )
  addBrowserOptions(command)
  addProviderOptions(command)
  command.action(async (options: ServeOptions) => {
    applyProviderFlags(options)
    const { runServe } = await import('../serve/runServe')
    await runServe(options)
  })
}
