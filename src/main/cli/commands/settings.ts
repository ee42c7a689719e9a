import type { Command } from 'commander'
import type { SettingsCliOptions } from '../commandOptions'
import { dataDirOption } from '../program'

const lazy = () => import('../settings/runSettings')

export function registerSettingsCommand(program: Command): void {
  const settings = program
    .command('settings')
    .description('show and change settings and secrets (stored in the data folder)')

  settings
    .command('get')
    .description('print the settings as JSON (secrets masked), or one value')
    .argument('[key]', 'a dotted key such as attachments.budgetChars, or a secret name (shown masked)')
    .addOption(dataDirOption())
    .action(async (key: string | undefined, options: SettingsCliOptions) => {
      await (await lazy()).runSettingsGet(key, options)
    })

  settings
    .command('set')
    .description('change one setting; `null` resets it to its default')
    .argument('<key>', 'a dotted key such as ui.theme or providers.deepseek.baseUrl')
    .argument('<value>', 'JSON when it parses as JSON (5000, true, null, ["ACME"]), otherwise a string')
    .addOption(dataDirOption())
    .action(async (key: string, value: string, options: SettingsCliOptions) => {
      await (await lazy()).runSettingsSet(key, value, options)
    })

  settings
    .command('set-secret')
    .description('store a secret encrypted; the value is read from stdin, never from the command line')
    .argument('<name>', 'e.g. providers.deepseek.apiKey, email.smtpPassword, bridge.tokens.NAME')
    .addOption(dataDirOption())
    .addHelpText(
      'after',
      '\nExample:\n  printf %s "$DEEPSEEK_KEY" | bureau settings set-secret providers.deepseek.apiKey',
    )
    .action(async (name: string, options: SettingsCliOptions) => {
      await (await lazy()).runSettingsSetSecret(name, options)
    })

  settings
    .command('clear-secret')
    .description('remove a stored secret')
    .argument('<name>', 'e.g. providers.deepseek.apiKey')
    .addOption(dataDirOption())
    .action(async (name: string, options: SettingsCliOptions) => {
      await (await lazy()).runSettingsClearSecret(name, options)
    })
}
