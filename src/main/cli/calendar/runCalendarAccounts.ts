import { AppError } from '../../../shared/errors'
import { type CalendarAccount, CalendarAccountName, calendarPasswordSecret } from '../../../shared/settings'
import { testCalendarAccount } from '../../calendar'
import type { SettingsService } from '../../settings'
import type { CalendarAccountAddOptions, CalendarCliOptions } from '../commandOptions'
import { UsageError } from '../program'
import { openSettingsForCli, readAccountPassword } from '../settings/accountInput'
import { cliStreams } from '../textIo'

function open(options: { dataDir?: string }): Promise<SettingsService> {
  return openSettingsForCli(options.dataDir)
}

function password(name: string, options: CalendarAccountAddOptions): Promise<string> {
  return readAccountPassword(name, options.passwordEnv)
}

function accountOf(name: string, settings: SettingsService): CalendarAccount {
  const account = settings.get().calendar.accounts[name]
  if (!account) throw new AppError('NOT_FOUND', `There is no calendar account named "${name}".`)
  return account
}

export async function runCalendarAccountsAdd(
  name: string,
  options: CalendarAccountAddOptions,
): Promise<void> {
  if (!CalendarAccountName.safeParse(name).success)
    throw new UsageError(`"${name}" is not an account name: use lower-case letters, digits, "-" or "_".`)
  let url: URL
  try {
    url = new URL(options.url)
  } catch {
    throw new UsageError(`--url "${options.url}" is not an address: write it as https://dav.example.com/.`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError('--url must start with https:// (or http:// for a server on this machine).')
  if (url.username || url.password)
    throw new UsageError('Put the user in --user and the password on stdin, not in the address.')
  const secret = await password(name, options)
  const settings = await open(options)
  await settings.update({ calendar: { accounts: { [name]: { url: url.toString(), user: options.user } } } })
  await settings.setSecret(calendarPasswordSecret(name), secret)
  cliStreams().stdout.write(
    `Saved calendar account "${name}". Check it with \`bureau calendar accounts test ${name}\`; its calendars are ${name}:<calendar name>.\n`,
  )
}

export async function runCalendarAccountsList(options: CalendarCliOptions): Promise<void> {
  const settings = await open(options)
  const { accounts } = settings.get().calendar
  const names = Object.keys(accounts).sort()
  if (names.length === 0) {
    cliStreams().stderr.write(
      'No calendar accounts. Add one with `bureau calendar accounts add NAME --url URL --user USER`.\n',
    )
    return
  }
  const secrets = settings.getPublic().secrets
  for (const name of names) {
    const a = accounts[name]!
    const pw = secrets[calendarPasswordSecret(name)]?.set ? 'password set' : 'no password'
    cliStreams().stdout.write(`${name}\t${a.user}\t${a.url}\t${pw}\n`)
  }
}

export async function runCalendarAccountsTest(name: string, options: CalendarCliOptions): Promise<void> {
  const settings = await open(options)
  const account = accountOf(name, settings)
  const result = await testCalendarAccount(
    {
      settings: () => settings.get().calendar,
      password: (n) => settings.getSecret(calendarPasswordSecret(n)),
    },
    name,
    account,
    undefined,
  )
  cliStreams().stdout.write(`CalDAV: ${result.ok ? 'ok' : 'failed'}: ${result.message}\n`)
  if (!result.ok) throw new AppError('UNAVAILABLE', `Account "${name}" did not pass the test.`)
}

export async function runCalendarAccountsRm(name: string, options: CalendarCliOptions): Promise<void> {
  const settings = await open(options)
  accountOf(name, settings)
  // The update removes the account's password too.
  await settings.update({ calendar: { accounts: { [name]: null } } })
  cliStreams().stdout.write(`Removed calendar account "${name}" and its password.\n`)
}
