import type { Command } from 'commander'
import type { ProvidersCliOptions } from '../commandOptions'
import { dataDirOption } from '../program'

const lazy = () => import('../providers/runProviders')

export function registerProvidersCommand(program: Command): void {
  const providers = program
    .command('providers')
    .description('list the LLM providers (providers.json + your overrides) and test a connection')
    .addHelpText(
      'after',
      '\nEnvironment overrides for the active provider: BUREAU_PROVIDER, BUREAU_BASE_URL, BUREAU_MODEL,\n' +
        'BUREAU_API_KEY, BUREAU_CONTEXT_WINDOW, BUREAU_INTERACTION_MODE (api|cli|auto).',
    )

  providers
    .command('list')
    .description('id, kind, model, context window, interaction mode and whether a key is set (* = active)')
    .addOption(dataDirOption())
    .option('--json', 'print the list as JSON')
    .action(async (options: ProvidersCliOptions) => {
      await (await lazy()).runProvidersList(options)
    })

  providers
    .command('test')
    .description('send one short request and print the round-trip latency (exit 1 when it fails)')
    .argument('[id]', 'provider id (default: the active provider)')
    .addOption(dataDirOption())
    .option('--json', 'print the result as JSON')
    .action(async (id: string | undefined, options: ProvidersCliOptions) => {
      await (await lazy()).runProvidersTest(id, options)
    })
}
