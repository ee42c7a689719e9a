import type { Command } from 'commander'
import type { BridgeCliCommandOptions } from '../commandOptions'
import { dataDirOption } from '../program'

const lazy = () => import('../bridge/runBridgeToken')

export function registerBridgeCommand(program: Command): void {
  const bridge = program
    .command('bridge')
    .description('the OpenAI-compatible API on `bureau serve` (/v1): its API tokens')
  const token = bridge
    .command('token')
    .description('named API tokens for /v1 (stored hashed and encrypted; separate from the UI token)')

  token
    .command('create')
    .description('create a token and print it once (it cannot be shown again)')
    .argument('<name>', 'lower-case letters, digits, "-" or "_", e.g. my-script')
    .addOption(dataDirOption())
    .action(async (name: string, options: BridgeCliCommandOptions) => {
      await (await lazy()).runTokenCreate(name, options)
    })

  token
    .command('list')
    .description('list the token names and when they were created')
    .addOption(dataDirOption())
    .action(async (options: BridgeCliCommandOptions) => {
      await (await lazy()).runTokenList(options)
    })

  token
    .command('revoke')
    .description('delete a token; requests using it get 401 at once')
    .argument('<name>', 'the token name')
    .addOption(dataDirOption())
    .action(async (name: string, options: BridgeCliCommandOptions) => {
      await (await lazy()).runTokenRevoke(name, options)
    })
}
