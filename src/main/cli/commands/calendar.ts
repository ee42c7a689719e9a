import type { Command } from 'commander'
import type { CalendarAccountAddOptions, CalendarCliOptions } from '../commandOptions'
import { dataDirOption } from '../program'

const lazy = () => import('../calendar/runCalendarAccounts')

export function registerCalendarCommand(program: Command): void {
  const calendar = program
    .command('calendar')
    .description('CalDAV accounts and the time zone of the calendar toolset')
  const accounts = calendar.command('accounts').description('add, list, test and remove CalDAV accounts')

  accounts
    .command('add')
    .description(
      'add or replace an account; the password comes from --password-env or stdin, never an argument',
    )
    .argument('<name>', 'lower-case letters, digits, "-" or "_", e.g. work')
    .requiredOption('--url <url>', 'the CalDAV server (its root or the calendar home), https://…')
    .requiredOption('--user <user>', 'login name')
    .option('--password-env <VAR>', 'read the password from this environment variable')
    .addOption(dataDirOption())
    .addHelpText(
      'after',
      '\nExample:\n  printf %s "$CALDAV_PASSWORD" | bureau calendar accounts add work --url https://dav.example.com/ --user me',
    )
    .action(async (name: string, options: CalendarAccountAddOptions) => {
      await (await lazy()).runCalendarAccountsAdd(name, options)
    })

  accounts
    .command('list')
    .description('list the accounts (the password only as set or not)')
    .addOption(dataDirOption())
    .action(async (options: CalendarCliOptions) => {
      await (await lazy()).runCalendarAccountsList(options)
    })

  accounts
    .command('test')
    .description('log in to an account and list its calendars; exit 1 when it fails')
    .argument('<name>', 'the account')
    .addOption(dataDirOption())
    .action(async (name: string, options: CalendarCliOptions) => {
      await (await lazy()).runCalendarAccountsTest(name, options)
    })

  accounts
    .command('rm')
    .description('remove an account and its stored password')
    .argument('<name>', 'the account')
    .addOption(dataDirOption())
    .action(async (name: string, options: CalendarCliOptions) => {
      await (await lazy()).runCalendarAccountsRm(name, options)
    })
}
